"""The appliance: the command line, game flows, hardware adapters, screens and the journal."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("tablescore")
except PackageNotFoundError:  # running from a source tree that was never installed
    __version__ = "0+unknown"
