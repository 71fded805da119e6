#!/usr/bin/env python3
"""Lowers real network architectures to TOSA 1.0 flatbuffers for spvgraph's corpus.

Each network is a torchvision model or a small hand-written one with random
weights (seeded), BatchNorm statistics recalibrated on random data, lowered
by ExecuTorch's Arm backend (`TosaCompileSpec`, `to_edge_transform_and_lower`)
in FP32 (`TOSA-1.0+FP`) and, where the Arm quantizer supports it, INT8
(`TOSA-1.0+INT`, `create_quantizer` then `prepare_pt2e`/`convert_pt2e`).
For each variant it writes, into the output folder:

* `STEM.tosa.xz`: the TOSA flatbuffer, xz-compressed;
* `STEM.in<i>.npy`: the fixed inputs (drawn from the seed), in the
  flatbuffer's input order;
* `STEM.out<j>.npy`: the TOSA reference model's outputs on them
  (`tosa_reference_model`, the one `ci/setup-oracles` installed);
* `STEM.json`: the manifest (family, precision, operators, inputs, outputs,
  the eager PyTorch comparison, provenance: versions, command, seed).

The eager PyTorch output is compared with the reference model's as a sanity
check of the lowering (never a finding of spvgraph's): the manifest records
the largest absolute difference and the tolerance it passes at.

Run it in its own virtual environment (requirements.txt; never part of
`ci/test`):

    python3 -m venv ../et-venv && ../et-venv/bin/pip install -r corpus/networks/requirements.txt
    OMP_NUM_THREADS=1 ../et-venv/bin/python corpus/networks/make.py            # the committed, reduced widths
    OMP_NUM_THREADS=1 ../et-venv/bin/python corpus/networks/make.py --full --out DIR   # full widths, 224x224
"""

from __future__ import annotations

import argparse
import hashlib
import json
import lzma
import os
import platform
import shlex
import subprocess
import sys
import tempfile
import time
import traceback
from pathlib import Path

# One thread: the machine is shared, and a fixed thread count keeps float
# results reproducible.
os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np  # noqa: E402
import torch  # noqa: E402
import torch.nn as nn  # noqa: E402
import torch.nn.functional as F  # noqa: E402
import torchvision  # noqa: E402

torch.set_num_threads(1)

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
SEED = 32


# ---------------------------------------------------------------- networks


class DetectionHead(nn.Module):
    """An SSD-lite-like detector: a small strided backbone, and at three
    scales a depthwise-separable class head and box head, flattened and
    concatenated as SSD's are (anchors x classes, anchors x 4)."""

    def __init__(self, width: int, classes: int = 8, anchors: int = 3):
        super().__init__()

        def block(cin, cout, stride):
            return nn.Sequential(
                nn.Conv2d(cin, cin, 3, stride, 1, groups=cin, bias=False),
                nn.BatchNorm2d(cin),
                nn.ReLU6(),
                nn.Conv2d(cin, cout, 1, bias=False),
                nn.BatchNorm2d(cout),
                nn.ReLU6(),
            )

        w = width
        self.stem = nn.Sequential(nn.Conv2d(3, w, 3, 2, 1, bias=False), nn.BatchNorm2d(w), nn.ReLU6())
        self.stages = nn.ModuleList([block(w, 2 * w, 2), block(2 * w, 4 * w, 2), block(4 * w, 8 * w, 2)])
        self.classes = classes
        self.anchors = anchors

        def head(cin, cout):
            return nn.Sequential(
                nn.Conv2d(cin, cin, 3, 1, 1, groups=cin, bias=False),
                nn.BatchNorm2d(cin),
                nn.ReLU6(),
                nn.Conv2d(cin, cout, 1),
            )

        chans = [2 * w, 4 * w, 8 * w]
        self.cls = nn.ModuleList([head(c, anchors * classes) for c in chans])
        self.box = nn.ModuleList([head(c, anchors * 4) for c in chans])

    def forward(self, x):
        x = self.stem(x)
        scores, boxes = [], []
        for stage, cls, box in zip(self.stages, self.cls, self.box):
            x = stage(x)
            n = x.shape[0]
            scores.append(cls(x).permute(0, 2, 3, 1).reshape(n, -1, self.classes))
            boxes.append(box(x).permute(0, 2, 3, 1).reshape(n, -1, 4))
        return torch.cat(scores, 1).softmax(-1), torch.cat(boxes, 1)


class UNetSmall(nn.Module):
    """A two-level U-Net: convolutions down, transposed convolutions up,
    skip connections concatenated, a per-pixel class map out."""

    def __init__(self, width: int, classes: int = 4):
        super().__init__()

        def double(cin, cout):
            return nn.Sequential(
                nn.Conv2d(cin, cout, 3, padding=1, bias=False),
                nn.BatchNorm2d(cout),
                nn.ReLU(),
                nn.Conv2d(cout, cout, 3, padding=1, bias=False),
                nn.BatchNorm2d(cout),
                nn.ReLU(),
            )

        w = width
        self.d1, self.d2, self.mid = double(3, w), double(w, 2 * w), double(2 * w, 4 * w)
        self.u2 = nn.ConvTranspose2d(4 * w, 2 * w, 2, stride=2)
        self.c2 = double(4 * w, 2 * w)
        self.u1 = nn.ConvTranspose2d(2 * w, w, 2, stride=2)
        self.c1 = double(2 * w, w)
        self.out = nn.Conv2d(w, classes, 1)

    def forward(self, x):
        a = self.d1(x)
        b = self.d2(F.max_pool2d(a, 2))
        m = self.mid(F.max_pool2d(b, 2))
        y = self.c2(torch.cat([self.u2(m), b], 1))
        y = self.c1(torch.cat([self.u1(y), a], 1))
        return self.out(y)


class Encoder(nn.Module):
    """A BERT-like encoder on embedded tokens: learned position embeddings,
    post-norm blocks of multi-head self-attention (written out: linear
    projections, scaled dot products, softmax) and a GELU MLP, then a pooled
    classifier with tanh, as BERT's pooler."""

    def __init__(self, hidden: int, heads: int, layers: int, mlp: int, tokens: int, classes: int = 4):
        super().__init__()
        self.heads = heads
        self.pos = nn.Parameter(torch.randn(1, tokens, hidden) * 0.02)
        self.norm0 = nn.LayerNorm(hidden)
        self.blocks = nn.ModuleList()
        for _ in range(layers):
            self.blocks.append(
                nn.ModuleDict(
                    {
                        "qkv": nn.Linear(hidden, 3 * hidden),
                        "proj": nn.Linear(hidden, hidden),
                        "norm1": nn.LayerNorm(hidden),
                        "fc1": nn.Linear(hidden, mlp),
                        "fc2": nn.Linear(mlp, hidden),
                        "norm2": nn.LayerNorm(hidden),
                    }
                )
            )
        self.pool = nn.Linear(hidden, hidden)
        self.head = nn.Linear(hidden, classes)

    def forward(self, x):
        n, t, h = x.shape
        d = h // self.heads
        x = self.norm0(x + self.pos)
        for b in self.blocks:
            q, k, v = b["qkv"](x).reshape(n, t, 3, self.heads, d).permute(2, 0, 3, 1, 4)
            att = (q @ k.transpose(-2, -1)) * (d**-0.5)
            y = (att.softmax(-1) @ v).transpose(1, 2).reshape(n, t, h)
            x = b["norm1"](x + b["proj"](y))
            x = b["norm2"](x + b["fc2"](F.gelu(b["fc1"](x))))
        return self.head(torch.tanh(self.pool(x[:, 0])))


class Tcn(nn.Module):
    """A temporal convolutional net for keyword spotting: dilated conv1d
    residual blocks over mel frames, global average pooling, a classifier."""

    def __init__(self, channels: int, mels: int = 40, classes: int = 12, blocks: int = 4):
        super().__init__()
        self.inp = nn.Sequential(nn.Conv1d(mels, channels, 3, padding=1, bias=False), nn.BatchNorm1d(channels), nn.ReLU())
        self.blocks = nn.ModuleList()
        for i in range(blocks):
            dil = 2**i
            self.blocks.append(
                nn.Sequential(
                    nn.Conv1d(channels, channels, 3, padding=dil, dilation=dil, bias=False),
                    nn.BatchNorm1d(channels),
                    nn.ReLU(),
                    nn.Conv1d(channels, channels, 1, bias=False),
                    nn.BatchNorm1d(channels),
                )
            )
        self.fc = nn.Linear(channels, classes)

    def forward(self, x):
        x = self.inp(x)
        for b in self.blocks:
            x = F.relu(x + b(x))
        return self.fc(x.mean(-1))


def resnet18_like(width: int, classes: int):
    """torchvision's ResNet-18 (BasicBlock, [2, 2, 2, 2]) with its four
    stage widths scaled from 64..512 to width..8*width."""
    from torchvision.models.resnet import BasicBlock, ResNet

    m = ResNet(BasicBlock, [2, 2, 2, 2], num_classes=classes)
    if width == 64:
        return m

    # Rebuild the stages at the reduced width (ResNet hard-codes 64..512).
    m.inplanes = width
    m.conv1 = nn.Conv2d(3, width, 7, 2, 3, bias=False)
    m.bn1 = nn.BatchNorm2d(width)
    m.layer1 = m._make_layer(BasicBlock, width, 2)
    m.layer2 = m._make_layer(BasicBlock, 2 * width, 2, stride=2)
    m.layer3 = m._make_layer(BasicBlock, 4 * width, 2, stride=2)
    m.layer4 = m._make_layer(BasicBlock, 8 * width, 2, stride=2)
    m.fc = nn.Linear(8 * width, classes)
    return m


def mobilenet_v2(full: bool):
    """torchvision's MobileNetV2; reduced: width 0.25 with the last 1x1
    convolution at 320 channels instead of 1280 (which alone would hold half
    the weights) and 16 classes."""
    from torchvision.models.mobilenetv2 import Conv2dNormActivation

    if full:
        return torchvision.models.mobilenet_v2(weights=None)
    m = torchvision.models.mobilenet_v2(weights=None, width_mult=0.25, num_classes=16)
    cin = m.features[-1][0].in_channels
    m.features[-1] = Conv2dNormActivation(cin, 320, kernel_size=1, norm_layer=nn.BatchNorm2d, activation_layer=nn.ReLU6)
    m.classifier[-1] = nn.Linear(320, 16)
    return m


def efficientnet_b0(width: float, classes: int):
    from torchvision.models.efficientnet import EfficientNet, _efficientnet_conf

    setting, last = _efficientnet_conf("efficientnet_b0", width_mult=width, depth_mult=1.0)
    return EfficientNet(setting, dropout=0.2, num_classes=classes, last_channel=last)


def lraspp(width: float, classes: int, inter: int):
    """torchvision's LRASPP head on a dilated MobileNetV3-Large backbone, as
    lraspp_mobilenet_v3_large builds it (the low-level features after the
    stride-8 stage, the high-level ones at the end), at a width multiplier
    and with `inter` head channels."""
    from torchvision.models import mobilenet_v3_large
    from torchvision.models._utils import IntermediateLayerGetter
    from torchvision.models.segmentation.lraspp import LRASPP

    features = mobilenet_v3_large(weights=None, width_mult=width, dilated=True).features
    # Stage boundaries: the blocks whose depthwise convolution strides.
    stages = [0] + [i for i, b in enumerate(features) if getattr(b, "_is_cn", False)] + [len(features) - 1]
    low, high = stages[-4], stages[-1]
    backbone = IntermediateLayerGetter(features, return_layers={str(low): "low", str(high): "high"})
    return LRASPP(backbone, features[low].out_channels, features[high].out_channels, classes, inter)


class Unwrap(nn.Module):
    """Returns the tensor of a model that returns a dict (segmentation)."""

    def __init__(self, m):
        super().__init__()
        self.m = m

    def forward(self, x):
        return self.m(x)["out"]


def vit_tiny(hidden: int, mlp: int, image: int):
    """torchvision's VisionTransformer as ViT-Tiny: 12 layers, 3 heads,
    patch 16 (patch 8 at the reduced image size), at a hidden width."""
    from torchvision.models.vision_transformer import VisionTransformer

    patch = 16 if image >= 224 else 8
    m = VisionTransformer(
        image_size=image, patch_size=patch, num_layers=12, num_heads=3, hidden_dim=hidden, mlp_dim=mlp, num_classes=10
    )
    # torchvision initialises the classifier to zeros (for fine-tuning): with
    # random weights every output would be 0 and every comparison trivial.
    m.heads.head.reset_parameters()
    return m


def networks(full: bool):
    """name -> (family, builder, input shapes, note). Reduced widths unless
    `full`; the note says what was reduced."""
    img = 224 if full else 64
    out = {
        "mobilenet_v2": (
            "cnn",
            lambda: mobilenet_v2(full),
            [(1, 3, img, img)],
            "full" if full else "width_mult 0.25, last 1x1 convolution 320 channels (of 1280), 16 classes, 64x64",
        ),
        "mobilenet_v3_small": (
            "cnn",
            lambda: torchvision.models.mobilenet_v3_small(weights=None, width_mult=1.0 if full else 0.25, num_classes=1000 if full else 16),
            [(1, 3, img, img)],
            "full" if full else "width_mult 0.25, 16 classes, 64x64",
        ),
        "resnet18": (
            "cnn",
            lambda: resnet18_like(64 if full else 6, 1000 if full else 16),
            [(1, 3, img, img)],
            "full" if full else "stage widths 6..48 (of 64..512), 16 classes, 64x64",
        ),
        "efficientnet_b0": (
            "cnn",
            lambda: efficientnet_b0(1.0 if full else 0.15, 1000 if full else 16),
            [(1, 3, img, img)],
            "full" if full else "width_mult 0.15, 16 classes, 64x64",
        ),
        "lraspp_mobilenet_v3": (
            "segmentation",
            lambda: Unwrap(lraspp(1.0 if full else 0.15, 21 if full else 4, 128 if full else 32)),
            [(1, 3, img, img)],
            "full (21 classes)" if full else "backbone width_mult 0.15, head 32 channels (of 128), 4 classes, 64x64",
        ),
        "unet_small": (
            "segmentation",
            lambda: UNetSmall(32 if full else 8),
            [(1, 3, 128 if full else 32, 128 if full else 32)],
            "width 32, 128x128" if full else "width 8, 32x32",
        ),
        "ssdlite_head": (
            "detection",
            lambda: DetectionHead(32 if full else 8),
            [(1, 3, 320 if full else 64, 320 if full else 64)],
            "width 32, 320x320" if full else "width 8, 64x64",
        ),
        "vit_tiny": (
            "attention",
            lambda: vit_tiny(192 if full else 24, 768 if full else 48, 224 if full else 32),
            [(1, 3, 224 if full else 32, 224 if full else 32)],
            "ViT-Ti: 12 layers, 3 heads, hidden 192, MLP 768, patch 16, 224x224"
            if full
            else "12 layers, 3 heads, hidden 24, MLP 48, patch 8, 32x32 (16 patches + class token)",
        ),
        "bert_encoder": (
            "attention",
            lambda: Encoder(256 if full else 24, 4 if full else 2, 4, 1024 if full else 48, 128 if full else 16),
            [(1, 128 if full else 16, 256 if full else 24)],
            "4 layers, hidden 256, 4 heads, MLP 1024, 128 tokens"
            if full
            else "4 layers, hidden 24, 2 heads, MLP 48, 16 tokens (embedded tokens in)",
        ),
        "tcn_kws": (
            "sequence",
            lambda: Tcn(64 if full else 16),
            [(1, 40, 100 if full else 50)],
            "64 channels, 40 mels x 100 frames" if full else "16 channels, 40 mels x 50 frames",
        ),
    }
    return out


# ------------------------------------------------------------- the lowering


def recalibrate(model: nn.Module, shapes, gen: torch.Generator, passes: int = 8):
    """BatchNorm running statistics from a few training-mode passes on random
    data (a cumulative average: momentum None), so that activations keep a
    sensible scale through the network (with default statistics a random
    mobilenet_v2's outputs are ~1e-9 and every comparison passes trivially)."""
    bns = [m for m in model.modules() if isinstance(m, nn.modules.batchnorm._BatchNorm)]
    if not bns:
        return 0
    for m in bns:
        m.reset_running_stats()
        m.momentum = None
    model.train()
    with torch.no_grad():
        for _ in range(passes):
            model(*[torch.randn(s, generator=gen) for s in shapes])
    model.eval()
    return passes


def flatbuffers_of(edge) -> list[bytes]:
    """The delegates' processed bytes (TOSA flatbuffers), in graph order."""
    from executorch.exir.lowered_backend_module import LoweredBackendModule

    gm = edge.exported_program().graph_module
    return [m.processed_bytes for _, m in gm.named_modules() if isinstance(m, LoweredBackendModule)]


def undelegated(edge) -> list[str]:
    """Operators left outside the delegate (besides the plumbing)."""
    gm = edge.exported_program().graph_module
    left = []
    for n in gm.graph.nodes:
        if n.op != "call_function":
            continue
        name = str(n.target)
        if "executorch_call_delegate" in name or name.endswith("getitem") or "quantize_per_tensor" in name or "dequantize_per_tensor" in name:
            continue
        left.append(name)
    return left


def lower_fp32(model, example):
    from executorch.backends.arm.tosa.compile_spec import TosaCompileSpec
    from executorch.backends.arm.util._factory import create_partitioner
    from executorch.exir import to_edge_transform_and_lower

    spec = TosaCompileSpec("TOSA-1.0+FP")
    ep = torch.export.export(model, example, strict=False)
    edge = to_edge_transform_and_lower(ep, partitioner=[create_partitioner(spec)])
    return edge, model


def lower_int8(model, example, calibration):
    from executorch.backends.arm.quantizer import get_symmetric_quantization_config
    from executorch.backends.arm.tosa.compile_spec import TosaCompileSpec
    from executorch.backends.arm.util._factory import create_partitioner, create_quantizer
    from executorch.exir import to_edge_transform_and_lower
    from torchao.quantization.pt2e.quantize_pt2e import convert_pt2e, prepare_pt2e

    spec = TosaCompileSpec("TOSA-1.0+INT")
    quantizer = create_quantizer(spec)
    quantizer.set_global(get_symmetric_quantization_config())
    ep = torch.export.export(model, example, strict=False)
    prepared = prepare_pt2e(ep.module(check_guards=False), quantizer)
    with torch.no_grad():
        for batch in calibration:
            prepared(*batch)
    converted = convert_pt2e(prepared)
    ep2 = torch.export.export(converted, example, strict=False)
    edge = to_edge_transform_and_lower(ep2, partitioner=[create_partitioner(spec)])
    return edge, converted


# --------------------------------------------------- the flatbuffer's side

def graph_io(flatbuffer: bytes):
    """(inputs, outputs, operator histogram) of the main block: each
    interface as (name, numpy dtype name, shape)."""
    from tosa import DType, TosaGraph

    names = {v: k for k, v in vars(DType.DType).items() if not k.startswith("_")}
    g = TosaGraph.TosaGraph.GetRootAs(flatbuffer, 0)
    block = g.Regions(0).Blocks(0)
    tensors = {}
    for i in range(block.TensorsLength()):
        t = block.Tensors(i)
        tensors[t.Name().decode()] = (names.get(t.Type(), str(t.Type())), [int(d) for d in t.ShapeAsNumpy()] if t.ShapeLength() else [])
    ins = [block.Inputs(i).decode() for i in range(block.InputsLength())]
    outs = [block.Outputs(i).decode() for i in range(block.OutputsLength())]
    from tosa import Op

    opnames = {v: k for k, v in vars(Op.Op).items() if not k.startswith("_")}
    hist: dict[str, int] = {}
    for i in range(block.OperatorsLength()):
        op = opnames.get(block.Operators(i).Op(), "?")
        hist[op] = hist.get(op, 0) + 1
    return [(n, *tensors[n]) for n in ins], [(n, *tensors[n]) for n in outs], hist


NUMPY_OF = {"FP32": np.float32, "INT8": np.int8, "INT32": np.int32, "INT16": np.int16, "BOOL": np.bool_, "FP16": np.float16}


def tools():
    oracles = Path(os.environ.get("SPVGRAPH_ORACLES", ROOT / ".oracles"))
    paths = json.loads((oracles / "tools.json").read_text())
    versions = json.loads((oracles / "versions.json").read_text())
    return paths, versions


def run_reference(model_path: str, flatbuffer: bytes, ins, outs, inputs, work: Path):
    """The TOSA reference model's outputs of the flatbuffer on `inputs`."""
    (work / "net.tosa").write_bytes(flatbuffer)
    files = []
    for k, arr in enumerate(inputs):
        p = work / f"in{k}.npy"
        np.save(p, arr)
        files.append(str(p))
    out_dir = work / "out"
    out_dir.mkdir(exist_ok=True)
    desc = {
        "tosa_file": str(work / "net.tosa"),
        "ifm_name": [n for n, _, _ in ins],
        "ifm_file": files,
        "ofm_name": [n for n, _, _ in outs],
        "ofm_file": [f"out{j}.npy" for j in range(len(outs))],
    }
    (work / "desc.json").write_text(json.dumps(desc))
    t0 = time.time()
    run = subprocess.run(
        [model_path, "--test_desc", str(work / "desc.json"), "--output_dir", str(out_dir)],
        capture_output=True,
        text=True,
        env={**os.environ, "TOSA_MODEL_NO_BACKTRACE": "1"},
    )
    if run.returncode != 0:
        raise RuntimeError(f"tosa_reference_model exit {run.returncode}: {run.stderr[-2000:]}{run.stdout[-2000:]}")
    return [np.load(out_dir / f"out{j}.npy") for j in range(len(outs))], time.time() - t0


def tolerance(a: np.ndarray, b: np.ndarray):
    """The largest absolute difference, the scale of the values, and the
    smallest power-of-ten relative tolerance (of the largest magnitude) the
    two agree within."""
    a = a.astype(np.float64)
    b = b.astype(np.float64)
    diff = float(np.max(np.abs(a - b))) if a.size else 0.0
    scale = float(max(np.max(np.abs(a)), np.max(np.abs(b)))) if a.size else 0.0
    rel = diff / scale if scale > 0 else 0.0
    tol = next((t for t in [10.0**-k for k in range(7, -1, -1)] if rel <= t), None)
    return {"max_abs_diff": diff, "max_abs_value": scale, "relative": rel, "agrees_within": tol}


def quant_params(edge) -> dict:
    """Scale and zero point of the graph's quantize (input) and dequantize
    (output) nodes left outside the delegate, in order."""
    gm = edge.exported_program().graph_module
    q, dq = [], []
    for n in gm.graph.nodes:
        if n.op != "call_function":
            continue
        name = str(n.target)
        if "quantize_per_tensor" in name and "dequantize" not in name:
            q.append({"scale": float(n.args[1]), "zero_point": int(n.args[2])})
        elif "dequantize_per_tensor" in name:
            dq.append({"scale": float(n.args[1]), "zero_point": int(n.args[2])})
    return {"inputs": q, "outputs": dq}


def make_variant(name, family, build, shapes, note, precision, args, paths, versions, out: Path):
    stem = f"{name}-{precision}"
    gen = torch.Generator().manual_seed(SEED)
    torch.manual_seed(SEED)
    model = build()
    passes = recalibrate(model, shapes, gen)
    model.eval()
    inputs_f = [torch.randn(s, generator=torch.Generator().manual_seed(SEED + 1 + k)) for k, s in enumerate(shapes)]
    example = tuple(inputs_f)
    t0 = time.time()
    if precision == "fp32":
        edge, eager_model = lower_fp32(model, example)
    else:
        calib_gen = torch.Generator().manual_seed(SEED + 100)
        calibration = [tuple(torch.randn(s, generator=calib_gen) for s in shapes) for _ in range(4)] + [example]
        edge, eager_model = lower_int8(model, example, calibration)
    lower_s = time.time() - t0
    fbs = flatbuffers_of(edge)
    left = undelegated(edge)
    if len(fbs) != 1:
        raise RuntimeError(f"{len(fbs)} delegated partitions (operators left out: {left})")
    fb = fbs[0]
    ins, outs, hist = graph_io(fb)
    qp = quant_params(edge) if precision == "int8" else {"inputs": [], "outputs": []}
    # The flatbuffer's inputs: float as given, or quantized as the graph's
    # quantize nodes outside the delegate would.
    tosa_inputs = []
    for k, (iname, dtype, shape) in enumerate(ins):
        x = inputs_f[k].numpy()
        if dtype == "INT8":
            p = qp["inputs"][k]
            x = np.clip(np.round(x / p["scale"]) + p["zero_point"], -128, 127).astype(np.int8)
        tosa_inputs.append(x.astype(NUMPY_OF[dtype]).reshape(shape))
    with tempfile.TemporaryDirectory() as d:
        ref_outs, ref_s = run_reference(paths["tosa_reference_model"], fb, ins, outs, tosa_inputs, Path(d))
    with torch.no_grad():
        eager = eager_model(*example)
        float_out = model(*example)
    eager = [eager] if isinstance(eager, torch.Tensor) else list(eager)
    float_out = [float_out] if isinstance(float_out, torch.Tensor) else list(float_out)
    comparisons = []
    for j, r in enumerate(ref_outs):
        rv = r.astype(np.float64)
        if outs[j][1] == "INT8" and j < len(qp["outputs"]):
            p = qp["outputs"][j]
            rv = (rv - p["zero_point"]) * p["scale"]
        e = eager[j].detach().numpy().reshape(rv.shape)
        c = {"output": j, "eager": "quantized model (fake-quantized, converted)" if precision == "int8" else "float model", **tolerance(e, rv)}
        if precision == "int8":
            c["float_model"] = tolerance(float_out[j].detach().numpy().reshape(rv.shape), rv)
        comparisons.append(c)
    compressed = lzma.compress(fb, preset=9 | lzma.PRESET_EXTREME)
    out.mkdir(parents=True, exist_ok=True)
    (out / f"{stem}.tosa.xz").write_bytes(compressed)
    in_files, out_files = [], []
    for k, x in enumerate(tosa_inputs):
        f = f"{stem}.in{k}.npy"
        np.save(out / f, x)
        in_files.append({"file": f, "name": ins[k][0], "dtype": ins[k][1], "shape": ins[k][2], **({"quantization": qp["inputs"][k]} if ins[k][1] == "INT8" else {})})
    for j, r in enumerate(ref_outs):
        f = f"{stem}.out{j}.npy"
        np.save(out / f, r)
        out_files.append({"file": f, "name": outs[j][0], "dtype": outs[j][1], "shape": outs[j][2], **({"quantization": qp["outputs"][j]} if outs[j][1] == "INT8" and j < len(qp["outputs"]) else {})})
    params = sum(p.numel() for p in model.parameters())
    manifest = {
        "name": stem,
        "network": name,
        "family": family,
        "precision": precision,
        "width": note,
        "file": f"{stem}.tosa.xz",
        "flatbuffer_bytes": len(fb),
        "flatbuffer_sha256": hashlib.sha256(fb).hexdigest(),
        "compressed_bytes": len(compressed),
        "parameters": params,
        # CONST and CONST_SHAPE hold data: the operators are the rest.
        "operators": sum(v for k, v in hist.items() if k not in ("CONST", "CONST_SHAPE")),
        "operator_histogram": dict(sorted(hist.items())),
        "inputs": in_files,
        "expected": out_files,
        "expected_from": f"tosa_reference_model (tosa-tools {versions.get('tosa-tools', '?')}) on the flatbuffer with the inputs above",
        "eager_comparison": comparisons,
        "provenance": {
            "seed": SEED,
            "weights": "random (torch.manual_seed(seed) before construction)",
            "batchnorm_recalibration_passes": passes,
            "inputs": "torch.randn with torch.Generator().manual_seed(seed + 1 + input index)"
            + ("; quantized with the graph's input scale and zero point" if precision == "int8" else ""),
            "calibration": "4 torch.randn batches (seed + 100) and the inputs" if precision == "int8" else None,
            "lowering": "TosaCompileSpec('TOSA-1.0+FP'), create_partitioner, to_edge_transform_and_lower"
            if precision == "fp32"
            else "TosaCompileSpec('TOSA-1.0+INT'), create_quantizer + get_symmetric_quantization_config, prepare_pt2e/convert_pt2e on ep.module(check_guards=False), create_partitioner, to_edge_transform_and_lower",
            "command": "python3 corpus/networks/make.py " + " ".join(shlex.quote(a) for a in recorded_args(args)),
            "versions": {
                "python": platform.python_version(),
                "torch": torch.__version__,
                "torchvision": torchvision.__version__,
                "executorch": _version("executorch"),
                "torchao": _version("torchao"),
                "tosa-tools (serializer)": _version("tosa-tools"),
                "tosa-tools (reference model)": versions.get("tosa-tools"),
            },
            "lowering_seconds": round(lower_s, 1),
            "reference_model_seconds": round(ref_s, 1),
        },
    }
    (out / f"{stem}.json").write_text(json.dumps(manifest, indent=2) + "\n")
    return manifest


def recorded_args(args: list[str]) -> list[str]:
    """The command line as the manifest records it: without `--out DIR`
    (where the files went changes nothing in them, and a machine's path has
    no place in the repository)."""
    out, skip = [], False
    for a in args:
        if skip:
            skip = False
        elif a == "--out":
            skip = True
        elif not a.startswith("--out="):
            out.append(a)
    return out


def _version(pkg):
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(pkg)
    except PackageNotFoundError:
        return None


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--full", action="store_true", help="full widths and input sizes (too large for git)")
    ap.add_argument("--out", type=Path, default=HERE, help="output folder (default: this folder)")
    ap.add_argument("--only", nargs="*", help="network names to make (default: all)")
    ap.add_argument("--precision", nargs="*", default=["fp32", "int8"], choices=["fp32", "int8"])
    args = ap.parse_args()
    if args.full and args.out.resolve() == HERE:
        ap.error("--full writes tens of MB: give --out DIR outside the repository")
    paths, versions = tools()
    failures = {}
    for name, (family, build, shapes, note) in networks(args.full).items():
        if args.only and name not in args.only:
            continue
        for precision in args.precision:
            t0 = time.time()
            try:
                m = make_variant(name, family, build, shapes, note, precision, sys.argv[1:], paths, versions, args.out)
                cmp = m["eager_comparison"][0]
                print(
                    f"{m['name']}: {m['operators']} operators, {m['compressed_bytes'] / 1024:.0f} KiB xz, "
                    f"eager vs reference max |diff| {cmp['max_abs_diff']:.3g} of {cmp['max_abs_value']:.3g} "
                    f"({time.time() - t0:.0f} s)",
                    flush=True,
                )
            except Exception as e:  # a network that does not lower is reported, and the others go on
                failures[f"{name}-{precision}"] = f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"[:400]
                print(f"{name}-{precision}: FAILED: {failures[f'{name}-{precision}']}", flush=True)
                traceback.print_exc(file=sys.stderr)
    if failures:
        (args.out / "failures.json").write_text(json.dumps(failures, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
