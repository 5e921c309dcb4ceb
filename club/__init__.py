"""Club mode: the tables of a club publish their confirmed events to one MQTT broker, and the club server
keeps every game and serves the live standings (``tablescore club serve``)."""
