"""The convolutional index reader as run on the device (``cv2.dnn`` reading ONNX) against PyTorch.

The committed model carries a batch of feature rows with the logits PyTorch gave them when it was
exported, so the device's reading is checked without PyTorch; when PyTorch (the ``train`` extra) is
installed, a freshly made network is exported and compared too.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from vision import glyphs, patches

ENGINES = [getattr(cv2.dnn, name) for name in ("ENGINE_CLASSIC", "ENGINE_NEW") if hasattr(cv2.dnn, name)] or [None]
"""OpenCV's ONNX engines here (OpenCV 4 has one, chosen by default; OpenCV 5 a classic and a new one)."""
COMMITTED = pytest.mark.parametrize(("prefix", "path"), [("", glyphs.MODEL.with_suffix(".onnx")),
                                                         *((f"{e}_", glyphs.expert_path(glyphs.MODEL, e)) for e in glyphs.EXPERTS)],
                                    ids=["reader", *glyphs.EXPERTS])
"""The committed reader and experts, each with the prefix of its reference rows in the model file."""


@pytest.mark.parametrize("engine", ENGINES)
@COMMITTED
def test_the_committed_reader_and_expert_give_pytorchs_logits_through_cv2_dnn(prefix: str, path: Path,
                                                                              engine: int | None) -> None:
    with np.load(glyphs.MODEL) as data:
        x, rank, suit = data[f"{prefix}check_x"], data[f"{prefix}check_rank"], data[f"{prefix}check_suit"]
    got_rank, got_suit = glyphs.ConvNet(path, engine).logits(x)
    assert len(x) >= 8 and x.shape[1] == patches.FEATURES
    np.testing.assert_allclose(got_rank, rank, atol=1e-4)
    np.testing.assert_allclose(got_suit, suit, atol=1e-4)


def test_probabilities_and_empty_batches() -> None:
    net = glyphs.load().net
    p_rank, p_suit = net.predict(np.random.default_rng(1).random((5, patches.FEATURES), dtype=np.float32))
    assert p_rank.shape == (5, len(glyphs.RANKS) + 1) and p_suit.shape == (5, len(glyphs.SUITS) + 1)
    assert np.allclose(p_rank.sum(axis=1), 1) and np.allclose(p_suit.sum(axis=1), 1)
    assert [a.shape for a in net.predict(np.zeros((0, patches.FEATURES), np.float32))] == [(0, 14), (0, 5)]


@pytest.mark.parametrize("engine", ENGINES)
def test_a_fresh_network_exported_reads_the_same_in_cv2_dnn_as_in_pytorch(tmp_path: Path, engine: int | None) -> None:
    torch = pytest.importorskip("torch")
    from tools.cards import train

    torch.manual_seed(0)
    model = train.conv_net()
    for layer in model.modules():  # running statistics unlike a fresh layer's, so folding them is checked
        if isinstance(layer, torch.nn.BatchNorm2d):
            layer.running_mean.uniform_(-0.5, 0.5)
            layer.running_var.uniform_(0.5, 2.0)
    model.eval()
    x = np.random.default_rng(2).random((glyphs.ConvNet.BATCH + 37, patches.FEATURES), dtype=np.float32)
    reference = train.export(model, tmp_path / "reader.onnx", x)
    net = glyphs.ConvNet(tmp_path / "reader.onnx", engine)
    for rows in (slice(0, 1), slice(0, 40), slice(None)):  # one row, a batch, more than one pass
        rank, suit = net.logits(x[rows])
        np.testing.assert_allclose(rank, reference["check_rank"][rows], atol=1e-4)
        np.testing.assert_allclose(suit, reference["check_suit"][rows], atol=1e-4)


@COMMITTED
def test_the_committed_networks_come_back_to_pytorch_to_go_on_training(prefix: str, path: Path,
                                                                        tmp_path: Path) -> None:
    torch = pytest.importorskip("torch")
    pytest.importorskip("onnx")
    from tools.cards import train

    with np.load(glyphs.MODEL) as data:
        x, rank, suit = data[f"{prefix}check_x"], data[f"{prefix}check_rank"], data[f"{prefix}check_suit"]
    model = train.initial(path)
    torch.save(model.state_dict(), tmp_path / "weights.pt")  # as a run going on from it saves its weights
    channels = tuple(conv[0].out_channels for conv in (model.conv1, model.conv2, model.conv3))
    widths = channels, model.hidden[0].out_features
    experts = (train.EXPERT_CHANNELS, train.EXPERT_HIDDEN)
    third = (32, 64, 128), 256  # the --expert-widths its recipe names (tools.cards.train's docstring)
    expected = {"": (train.CHANNELS, train.CNN_HIDDEN), "expert_": experts, "second_": experts, "third_": third}
    assert widths == expected[prefix]
    for network in (model.eval(), train.initial(tmp_path / "weights.pt", *widths).eval()):
        with torch.no_grad():
            got_rank, got_suit = network(*glyphs.conv_inputs(torch.from_numpy(x)))
        np.testing.assert_allclose(got_rank.numpy(), rank, atol=1e-4)
        np.testing.assert_allclose(got_suit.numpy(), suit, atol=1e-4)
    model.train()
    model.hidden[2].p = 0.0  # no dropout: the folded batch-norms stay identities in training, whatever the batch
    with torch.no_grad():
        np.testing.assert_allclose(model(*glyphs.conv_inputs(torch.from_numpy(x)))[0].numpy(), rank, atol=1e-4)
