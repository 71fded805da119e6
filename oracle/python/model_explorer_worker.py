#!/usr/bin/env python3
"""Persistent worker around Arm's Model Explorer adapters (issue 30).

Reads one JSON request per line on stdin and answers one JSON line on stdout
per request, in order. It wraps two PyPI packages and normalizes what they
return into a form that is easy to compare with `spvgraph info --json`:

  spirv-adapter-model-explorer  (SPIR-V graph modules; bundles libSPIRV-Tools)
  vgf-adapter-model-explorer    (VGF containers; needs ai-ml-sdk-vgf-library)

Both import `model_explorer.graph_builder` from ai-edge-model-explorer. The
package's own `__init__` starts importing the web server (flask, requests,
portpicker, watchdog, ...), which the adapters never use, so the worker
registers `model_explorer` as a bare package over its installed directory and
only its `graph_builder` submodule is loaded: ai-edge-model-explorer may be
installed with `pip install --no-deps`.

Requests
  {"id": N, "kind": "spirv", "path": "/abs/file.spv"}
      optional: "show_graph_constants" (default true), "raw" (default false:
      also return the adapter's own graphs as plain JSON)
  {"id": N, "kind": "vgf", "path": "/abs/file.vgf"}
      optional: "show_constants" (default true), "modules" (default false:
      also run the SPIR-V adapter on every module's code), "raw"
  {"id": N, "kind": "version"}

Answers
  {"id": N, "ok": true, "graphs": [...], ...}
  {"id": N, "ok": false, "error": "ExceptionType: message", "traceback": "..."}

A bad module never ends the worker: every exception (BaseException apart from
KeyboardInterrupt and SystemExit) becomes an `ok: false` answer. Only a crash
of native code (a signal) can end it; the caller restarts it then. Anything
native code prints on stdout is sent to stderr, so stdout carries answers only.

Limits. The SPIR-V adapter materializes every OpConstantNull and replicated
tensor constant element by element (a tensor whose shape says 2^30 elements
costs it gigabytes and minutes), so the worker caps its own address space
(SPVGRAPH_ME_WORKER_MEM_MB, default 4096; 0 for none): such a module gets a
MemoryError answer instead of the kernel's OOM killer. A request may carry
"timeout_s" (or set SPVGRAPH_ME_WORKER_TIMEOUT_S): Python code using more CPU
time than that is interrupted with a TimeoutError answer (native code is not
interrupted; the caller's own timeout still applies).

Element types use spvgraph's names (i8 i16 i32 i48 i64 fp16 fp32 fp64 bool).
The SPIR-V adapter keeps only the width of an OpTypeFloat, so a 16-bit float
is "fp16" with "type_ambiguous": true (it may be bf16) and an 8-bit float is
"fp8" with "type_ambiguous": true (fp8e4m3 or fp8e5m2). Integer signedness is
dropped (TOSA integers are signless; the adapter prints OpTypeInt N 0 as
uintN). Types are also given as "ty" in `spvgraph info`'s spelling:
"tensor<i8, 1x2x4x2>", "tensor<i8, rank 4>" (unshaped), "array<2, tensor<...>>".
"""

from __future__ import annotations

import dataclasses
import enum
import importlib.util
import json
import math
import os
import re
import signal
import sys
import traceback
import types

PROTOCOL_VERSION = 1

# ---------------------------------------------------------------------------
# stdout hygiene: answers go to a private copy of fd 1; fd 1 becomes stderr.

_OUT = None


def _setup_streams():
    global _OUT
    try:
        out_fd = os.dup(1)
        os.dup2(2, 1)
        _OUT = os.fdopen(out_fd, "w", encoding="utf-8", newline="\n")
        sys.stdout = sys.stderr
    except OSError:
        _OUT = sys.stdout


def _send(obj):
    try:
        text = json.dumps(_jsonable(obj), allow_nan=False, ensure_ascii=False)
    except BaseException as err:  # noqa: BLE001 - must always answer
        if isinstance(err, (KeyboardInterrupt, SystemExit)):
            raise
        text = json.dumps(
            {
                "id": obj.get("id") if isinstance(obj, dict) else None,
                "ok": False,
                "error": f"{type(err).__name__}: answer not serializable: {err}",
                "traceback": traceback.format_exc(),
            }
        )
    _OUT.write(text + "\n")
    _OUT.flush()


def _jsonable(value, depth=0):
    if depth > 200:
        return repr(value)
    if isinstance(value, enum.Enum):
        return str(value.name)
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else repr(value)
    if isinstance(value, dict):
        return {str(k): _jsonable(v, depth + 1) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v, depth + 1) for v in value]
    if isinstance(value, (bytes, bytearray, memoryview)):
        return f"<{len(value)} bytes>"
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {
            f.name: _jsonable(getattr(value, f.name), depth + 1)
            for f in dataclasses.fields(value)
        }
    return str(value)


# ---------------------------------------------------------------------------
# Imports, done lazily so that a missing package fails requests, not start-up.

_MODULES = {}


def _model_explorer():
    if "model_explorer" not in sys.modules:
        spec = importlib.util.find_spec("model_explorer")
        if spec is None or not spec.submodule_search_locations:
            raise ImportError(
                "ai-edge-model-explorer is not installed (model_explorer not found)"
            )
        pkg = types.ModuleType("model_explorer")
        pkg.__path__ = list(spec.submodule_search_locations)
        pkg.__spec__ = spec
        pkg.__file__ = spec.origin
        sys.modules["model_explorer"] = pkg
    import model_explorer.graph_builder as gb  # noqa: E402

    return gb


def _spirv_adapter():
    if "spirv" not in _MODULES:
        _model_explorer()
        from spirv_adapter_model_explorer import builder

        _MODULES["spirv"] = builder
    return _MODULES["spirv"]


def _spirv_model_parts():
    if "spirv_model" not in _MODULES:
        from spirv_adapter_model_explorer.spirv.semantic_model import (
            build_semantic_model,
        )
        from spirv_adapter_model_explorer.spirv.spirv_grammar import (
            load_core_grammar,
        )
        from spirv_adapter_model_explorer.spirv.spirv_parser import parse_spirv

        _MODULES["spirv_model"] = (load_core_grammar, parse_spirv, build_semantic_model)
    return _MODULES["spirv_model"]


def _vgf_adapter():
    if "vgf" not in _MODULES:
        _spirv_adapter()
        from vgf_adapter_model_explorer.builder.builder import VgfGraphBuilder
        from vgf_adapter_model_explorer.parser.parser import Parser

        _MODULES["vgf"] = (Parser, VgfGraphBuilder)
    return _MODULES["vgf"]


# ---------------------------------------------------------------------------
# Types

_TENSOR_RE = re.compile(r"^([A-Za-z]+)(\d*)\[(.*)\]$")
_ARRAY_RE = re.compile(r"^array<(.*?) x (.*)>$")


def _elem_name(kind, width):
    """Adapter element spelling -> (spvgraph name, ambiguous)."""
    if kind == "bool":
        return "bool", False
    if kind in ("int", "uint"):
        return f"i{width}", False
    if kind == "float":
        if width == "16":
            return "fp16", True
        if width == "8":
            return "fp8", True
        return f"fp{width}", False
    return f"{kind}{width}", False


def parse_type(text):
    """Parses the adapter's type string (`uint8[1, 2]`, `float32[*, *]`,
    `array<2 x uint8[3]>`, `uint32`) into a normalized dict."""
    if text is None:
        return None
    text = str(text).strip()
    out = {"adapter_type": text}
    if not text:
        return out
    if text.startswith("[") and text.endswith("]"):
        # a VGF resource's shape alone, no element type
        shape = _shape_list(text)
        out.update({"kind": "shape", "shape": shape})
        return out
    m = _ARRAY_RE.match(text)
    if m:
        inner = parse_type(m.group(2)) or {}
        length = m.group(1)
        out.update(
            {
                "kind": "array",
                "length": int(length) if length.isdigit() else None,
                "element": inner,
                "ty": f"array<{length if length else '?'}, {inner.get('ty', inner.get('adapter_type'))}>",
            }
        )
        return out
    m = _TENSOR_RE.match(text)
    if m:
        elem, ambiguous = _elem_name(m.group(1), m.group(2))
        dims = [d.strip() for d in m.group(3).split(",")] if m.group(3).strip() else []
        out.update({"kind": "tensor", "type": elem})
        if ambiguous:
            out["type_ambiguous"] = True
        if dims and all(d.lstrip("-").isdigit() for d in dims):
            shape = [int(d) for d in dims]
            out["shape"] = shape
            out["ty"] = f"tensor<{elem}, {'x'.join(str(d) for d in shape)}>"
        else:
            # unshaped: one "*" per dimension when the rank is known
            out["shape"] = None
            if dims and all(d == "*" for d in dims) and len(dims) > 1:
                out["rank"] = len(dims)
                out["ty"] = f"tensor<{elem}, rank {len(dims)}>"
            else:
                out["ty"] = f"tensor<{elem}, rank ?>"
        return out
    m = re.match(r"^(bool|u?int|float)(\d*)$", text)
    if m:
        elem, ambiguous = _elem_name(m.group(1), m.group(2))
        out.update({"kind": "scalar", "type": elem, "ty": elem})
        if ambiguous:
            out["type_ambiguous"] = True
        return out
    out["kind"] = "other"
    out["ty"] = text
    return out


def _type_fields(text):
    t = parse_type(text)
    if not t:
        return {}
    keep = ("type", "type_ambiguous", "shape", "rank", "ty", "adapter_type", "length")
    out = {k: t[k] for k in keep if k in t}
    if "element" in t:
        # an array's element type; "element" is a port's ElementIndex
        out["array_element"] = t["element"]
    if "kind" in t:
        out["type_kind"] = t["kind"]
    return out


# ---------------------------------------------------------------------------
# SPIR-V graphs

_NOISE_KEYS = {"spv asm", "spv asm line", "spv byte offset", "spec"}
_ARG_RE = re.compile(r"^arg(\d+)(?:\s+(.*))?$")


def _attrs(node):
    out = {}
    for kv in node.attrs or []:
        value = kv.value
        if not isinstance(value, str):
            value = _jsonable(value)
        out[str(kv.key)] = value
    return out


def _meta(items):
    """MetadataItem list -> {port id: {key: value}}."""
    out = {}
    for item in items or []:
        out[str(item.id)] = {str(kv.key): kv.value for kv in item.attrs or []}
    return out


def _spv_id(text):
    if isinstance(text, str) and text.startswith("%") and text[1:].isdigit():
        return int(text[1:])
    return None


def _int_or_none(text):
    try:
        return int(str(text), 0)
    except (TypeError, ValueError):
        return None


def _descriptors(attrs):
    out = {}
    for key, value in attrs.items():
        m = re.match(r"^descriptor \((.*)\)$", key)
        if not m:
            continue
        d = re.match(r"^set (\d+), binding (\d+)$", str(value))
        out[m.group(1)] = [int(d.group(1)), int(d.group(2))] if d else value
    return out


def _node_kind(node_id, label):
    # ids are "<prefix>input_..", "<prefix>output_..", "<prefix>graph_constant_..",
    # "<prefix>op_<spv id>" (a VGF segment adds "<segment>__")
    base = node_id.split("__", 1)[1] if "__" in node_id else node_id
    for kind in ("input", "output", "graph_constant", "op"):
        if base.startswith(kind + "_"):
            return kind
    return "other"


def _operand_ids_by_op(data, graph_ids):
    """Operand ids per operation id, from the adapter's own parser and model
    (the graph nodes carry constant operands as display strings only)."""
    load_core_grammar, parse_spirv, build_semantic_model = _spirv_model_parts()
    grammar = load_core_grammar()
    model = build_semantic_model(parse_spirv(data, grammar), grammar)
    out = {}
    for gid, graph in model.data_graphs.items():
        if graph_ids is not None and gid not in graph_ids:
            continue
        for op in graph.operations:
            out[op.id] = tuple(op.operand_ids)
    names = dict(model.debug_names.names)
    return out, names


def normalize_spirv_graph(graph, operand_ids=None, names=None):
    groups = graph.groupNodeAttributes or {}
    group = {}
    for attrs in groups.values():
        group.update(attrs)
    spv_graph_id = _spv_id(group.get("spv graph id"))
    entry_points = [e.strip() for e in str(group.get("entry_points", "")).split(",") if e.strip()]
    out = {
        "id": graph.id,
        "kind": "graph" if graph.id.startswith("graph_") else "compute",
        "spv_id": spv_graph_id,
        "name": entry_points[0] if entry_points else graph.id,
        "entry_points": entry_points,
        "spv_name": (names or {}).get(spv_graph_id),
        "graph_type": group.get("graph type"),
        "validation": group.get("Validation"),
        "validation_diagnostics": group.get("Validation diagnostics"),
        "debug_info": group.get("debug info"),
        "nodes": [],
        "inputs": [],
        "outputs": [],
        "constants": [],
        "operator_histogram": {},
    }
    constant_operands = {}
    for node in graph.nodes:
        attrs = _attrs(node)
        kind = _node_kind(node.id, node.label)
        ins = _meta(node.inputsMetadata)
        outs = _meta(node.outputsMetadata)
        edges = {
            str(e.targetNodeInputId): {
                "source_node": e.sourceNodeId,
                "source_output": _int_or_none(e.sourceNodeOutputId),
            }
            for e in node.incomingEdges or []
        }
        if kind == "input":
            port = outs.get("0", {})
            entry = {
                "node": node.id,
                "index": _int_or_none(attrs.get("logical input idx")),
                "element": _int_or_none(attrs.get("element index")) if "element index" in attrs else None,
                "spv_id": _spv_id(attrs.get("spv id")),
                "descriptors": _descriptors(attrs),
                "debug_info": attrs.get("debug info"),
            }
            entry.update(_type_fields(port.get("tensor_shape") or attrs.get("type")))
            out["inputs"].append(entry)
        elif kind == "output":
            port = ins.get("0", {})
            edge = edges.get("0")
            entry = {
                "node": node.id,
                "index": _int_or_none(attrs.get("logical output idx")),
                "element": _int_or_none(attrs.get("element index")) if "element index" in attrs else None,
                "value_spv_id": _spv_id(attrs.get("spv value id")),
                "source_node": edge["source_node"] if edge else None,
                "source_output": edge["source_output"] if edge else None,
                "descriptors": _descriptors(attrs),
                "debug_info": attrs.get("debug info"),
            }
            if edge is None and "value" in attrs:
                entry["constant"] = attrs["value"]
            entry.update(_type_fields(port.get("tensor_shape")))
            out["outputs"].append(entry)
        elif kind == "graph_constant":
            entry = {
                "kind": "graph_constant",
                "node": node.id,
                "graph_constant_id": _int_or_none(attrs.get("graph constant idx")),
                "spv_id": _spv_id(attrs.get("spv id")),
                "name": attrs.get("name"),
            }
            entry.update(_type_fields(attrs.get("type")))
            out["constants"].append(entry)
        else:
            spv_id = _spv_id(attrs.get("spv id"))
            op = node.label
            ext_set = attrs.get("spv ext set")
            n_ports = max(
                [len(node.inputsMetadata or [])]
                + [int(k) + 1 for k in edges if str(k).isdigit()]
                + [len((operand_ids or {}).get(spv_id, ()))]
            )
            arg_attrs = {}
            for key, value in attrs.items():
                m = _ARG_RE.match(key)
                if m:
                    arg_attrs[int(m.group(1))] = (m.group(2), value)
            op_operands = (operand_ids or {}).get(spv_id)
            inputs = []
            for i in range(n_ports):
                port = ins.get(str(i), {})
                item = {"index": i, "tag": port.get("__tensor_tag")}
                if op_operands is not None and i < len(op_operands):
                    item["spv_id"] = op_operands[i]
                edge = edges.get(str(i))
                if edge:
                    item.update(edge)
                elif i in arg_attrs:
                    item["constant"] = arg_attrs[i][1]
                    if item["tag"] is None and arg_attrs[i][0]:
                        item["tag"] = arg_attrs[i][0]
                    if "spv_id" in item:
                        constant_operands.setdefault(item["spv_id"], {"value": arg_attrs[i][1], "uses": []})[
                            "uses"
                        ].append([node.id, i])
                item.update(_type_fields(port.get("tensor_shape")))
                if "debug info" in port:
                    item["debug_info"] = port["debug info"]
                inputs.append(item)
            outputs = []
            for key in sorted(outs, key=lambda k: _int_or_none(k) if _int_or_none(k) is not None else 1 << 30):
                port = outs[key]
                item = {"index": _int_or_none(key), "tag": port.get("__tensor_tag")}
                item.update(_type_fields(port.get("tensor_shape")))
                if "tensor_shape" not in port:
                    # not a tensor: fall back to the result type (single result)
                    item.update(_type_fields(attrs.get("result type")))
                if "debug info" in port:
                    item["debug_info"] = port["debug info"]
                outputs.append(item)
            kept = {k: v for k, v in attrs.items() if k not in _NOISE_KEYS}
            entry = {
                "id": node.id,
                "op": op,
                "spv_id": spv_id,
                "ext_set": ext_set,
                "ext_opcode": _int_or_none(attrs.get("spv ext opcode")),
                "namespace": node.namespace or "",
                "inputs": inputs,
                "outputs": outputs,
                "result_type": _type_fields(attrs.get("result type")),
                "debug_info": attrs.get("debug info"),
                "attrs": kept,
            }
            out["nodes"].append(entry)
            if ext_set and str(ext_set).startswith("TOSA."):
                out["operator_histogram"][op] = out["operator_histogram"].get(op, 0) + 1
    for spv_id, info in sorted(constant_operands.items()):
        out["constants"].append({"kind": "constant", "spv_id": spv_id, "value": info["value"], "uses": info["uses"]})
    return out


def _raw_graph(graph):
    d = _jsonable(graph)
    for attrs in (d.get("groupNodeAttributes") or {}).values():
        if isinstance(attrs, dict):
            attrs.pop("spv full asm", None)
    return d


def handle_spirv(req):
    builder = _spirv_adapter()
    path = req["path"]
    with open(path, "rb") as f:
        data = f.read()
    show = bool(req.get("show_graph_constants", True))
    graphs = builder.build_spirv_graphs_from_bytes(data, show_graph_constants=show)
    graph_ids = {_spv_id((g.groupNodeAttributes or {}).get("", {}).get("spv graph id")) for g in graphs}
    try:
        operand_ids, names = _operand_ids_by_op(data, graph_ids)
        model_error = None
    except Exception as err:  # the graphs are still worth answering
        operand_ids, names, model_error = None, None, f"{type(err).__name__}: {err}"
    answer = {
        "ok": True,
        "graphs": [normalize_spirv_graph(g, operand_ids, names) for g in graphs],
    }
    if model_error:
        answer["operand_ids_error"] = model_error
    if req.get("raw"):
        answer["raw"] = [_raw_graph(g) for g in graphs]
    return answer


# ---------------------------------------------------------------------------
# VGF

# VkFormat of a VGF resource -> element type. TOSA's i48 is stored as a 64-bit
# integer (TOSA 1.0 has no i64 tensors). The adapter's VkFormat enum lacks the
# three ARM tensor formats of bf16 and fp8 and names them UNKNOWN_<value>.
_FORMAT_ELEM = {
    "VK_FORMAT_R8_BOOL_ARM": "bool",
    "VK_FORMAT_R8_SINT": "i8",
    "VK_FORMAT_R8_UINT": "i8",
    "VK_FORMAT_R16_SINT": "i16",
    "VK_FORMAT_R16_UINT": "i16",
    "VK_FORMAT_R32_SINT": "i32",
    "VK_FORMAT_R32_UINT": "i32",
    "VK_FORMAT_R64_SINT": "i48",
    "VK_FORMAT_R64_UINT": "i48",
    "VK_FORMAT_R16_SFLOAT": "fp16",
    "VK_FORMAT_R32_SFLOAT": "fp32",
    "VK_FORMAT_R64_SFLOAT": "fp64",
    "VK_FORMAT_R16_SFLOAT_FPENCODING_BFLOAT16_ARM": "bf16",
    "VK_FORMAT_R8_SFLOAT_FPENCODING_FLOAT8E4M3_ARM": "fp8e4m3",
    "VK_FORMAT_R8_SFLOAT_FPENCODING_FLOAT8E5M2_ARM": "fp8e5m2",
    "UNKNOWN_1000460001": "bf16",
    "UNKNOWN_1000460002": "fp8e4m3",
    "UNKNOWN_1000460003": "fp8e5m2",
}


def _shape_list(text):
    try:
        value = json.loads(str(text))
    except ValueError:
        return None
    if isinstance(value, list) and all(isinstance(v, int) for v in value):
        return value
    return None


def normalize_vgf_graph(graph):
    out = {
        "id": graph.id,
        "kind": "vgf",
        "name": graph.id,
        "segments": {},
        "nodes": [],
        "inputs": [],
        "outputs": [],
        "constants": [],
        "intermediates": [],
        "operator_histogram": {},
    }
    for ns, attrs in (graph.groupNodeAttributes or {}).items():
        out["segments"][ns] = {
            "entry_points": [e.strip() for e in str(attrs.get("entry_points", "")).split(",") if e.strip()],
            "graph_type": attrs.get("graph type"),
            "spv_id": _spv_id(attrs.get("spv graph id")),
            "validation": attrs.get("Validation"),
            "validation_diagnostics": attrs.get("Validation diagnostics"),
            "debug_info": attrs.get("debug info"),
        }
    op_nodes = []
    for node in graph.nodes:
        if node.id.startswith("mrt_"):
            attrs = _attrs(node)
            fmt = attrs.get("format")
            shape = _shape_list(attrs.get("shape"))
            elem = _FORMAT_ELEM.get(str(fmt))
            entry = {
                "node": node.id,
                "mrt_index": _int_or_none(node.id[4:]),
                "label": node.label,
                "category": attrs.get("category"),
                "format": fmt,
                "type": elem,
                "shape": shape,
                "ty": f"tensor<{elem}, {'x'.join(str(d) for d in shape)}>" if elem and shape is not None else None,
                "namespace": node.namespace or "",
                "incoming": [
                    {
                        "source_node": e.sourceNodeId,
                        "source_output": _int_or_none(e.sourceNodeOutputId) if e.sourceNodeOutputId != "alias" else "alias",
                    }
                    for e in node.incomingEdges or []
                ],
            }
            if "model input" in attrs:
                entry["model_input"] = attrs["model input"]
            if "model output" in attrs:
                entry["model_output"] = attrs["model output"]
            if "value" in attrs:
                entry["value"] = attrs["value"]
            target = {
                "INPUT": "inputs",
                "OUTPUT": "outputs",
                "CONSTANT": "constants",
                "INTERMEDIATE": "intermediates",
            }.get(str(attrs.get("category")), "intermediates")
            out[target].append(entry)
        else:
            op_nodes.append(node)
    if op_nodes:
        sub = types.SimpleNamespace(id=graph.id, nodes=op_nodes, groupNodeAttributes={})
        norm = normalize_spirv_graph(sub)
        resources = {r["node"]: r for key in ("inputs", "outputs", "constants", "intermediates") for r in out[key]}
        for n in norm["nodes"]:
            n["segment"] = n.get("namespace", "")
            for item in n["inputs"]:
                res = resources.get(item.get("source_node"))
                if res is not None and item.get("type_kind") in (None, "shape") and res.get("type"):
                    # the adapter gives a resource edge the resource's shape only
                    item["type"] = res["type"]
                    if item.get("shape") is None:
                        item["shape"] = res.get("shape")
                    item["ty"] = res.get("ty")
                    item["type_from"] = "resource"
        out["nodes"] = norm["nodes"]
        out["operator_histogram"] = norm["operator_histogram"]
    return out


def handle_vgf(req):
    Parser, VgfGraphBuilder = _vgf_adapter()
    vgf = Parser(req["path"]).vgf
    show = bool(req.get("show_constants", True))
    collection = VgfGraphBuilder(vgf, show_constants=show).graph_collection
    answer = {
        "ok": True,
        "label": collection.label,
        "graphs": [normalize_vgf_graph(g) for g in collection.graphs],
        "vgf": {
            "header": _jsonable(vgf.header),
            "modules": [
                {
                    "index": m.index,
                    "name": m.name,
                    "entry_point": m.entry_point,
                    "type": _jsonable(m.type),
                    "code_type": _jsonable(m.code_type),
                    "code_size": m.code_size,
                    "has_spirv": m.has_spirv,
                }
                for m in vgf.modules
            ],
            "segments": _jsonable(vgf.model_sequence.segments),
            "model_inputs": _jsonable(vgf.model_sequence.inputs),
            "model_outputs": _jsonable(vgf.model_sequence.outputs),
            "resources": _jsonable(vgf.resources),
            "constants": [
                {
                    "index": c.index,
                    "mrt_index": c.mrt_index,
                    "sparsity_dimension": c.sparsity_dimension,
                    "bytes": len(c.data),
                }
                for c in vgf.constants
            ],
        },
    }
    if req.get("modules"):
        builder = _spirv_adapter()
        mods = []
        for m in vgf.modules:
            item = {"index": m.index, "name": m.name, "entry_point": m.entry_point}
            if m.spirv_code is None:
                item.update({"ok": False, "error": "no SPIR-V code"})
            else:
                try:
                    graphs = builder.build_spirv_graphs_from_bytes(bytes(m.spirv_code), show_graph_constants=True)
                    ids, names = _operand_ids_by_op(bytes(m.spirv_code), None)
                    item.update({"ok": True, "graphs": [normalize_spirv_graph(g, ids, names) for g in graphs]})
                except Exception as err:
                    item.update({"ok": False, "error": f"{type(err).__name__}: {err}"})
            mods.append(item)
        answer["modules"] = mods
    if req.get("raw"):
        answer["raw"] = [_raw_graph(g) for g in collection.graphs]
    return answer


# ---------------------------------------------------------------------------
# version


def _dist_version(name):
    try:
        from importlib.metadata import version

        return version(name)
    except Exception as err:
        return f"unavailable ({type(err).__name__})"


def handle_version(_req):
    answer = {
        "ok": True,
        "protocol": PROTOCOL_VERSION,
        "python": sys.version.split()[0],
        "spirv-adapter-model-explorer": _dist_version("spirv-adapter-model-explorer"),
        "vgf-adapter-model-explorer": _dist_version("vgf-adapter-model-explorer"),
        "ai-edge-model-explorer": _dist_version("ai-edge-model-explorer"),
        "ai-ml-sdk-vgf-library": _dist_version("ai-ml-sdk-vgf-library"),
    }
    try:
        import ctypes

        from spirv_adapter_model_explorer.native.loader import spirv_tools_library_path

        path = spirv_tools_library_path()
        lib = ctypes.CDLL(path)
        lib.spvSoftwareVersionDetailsString.restype = ctypes.c_char_p
        answer["spirv-tools"] = lib.spvSoftwareVersionDetailsString().decode("utf-8", "replace")
        sbom = os.path.join(os.path.dirname(os.path.dirname(path)), "sboms", "spirv-tools-builds.spdx.json")
        if os.path.exists(sbom):
            with open(sbom, encoding="utf-8") as f:
                doc = json.load(f)
            for pkg in doc.get("packages", []):
                if pkg.get("name") in ("SPIRV-Tools", "SPIRV-Headers"):
                    answer[f"sbom {pkg['name']}"] = pkg.get("versionInfo")
    except Exception as err:
        answer["spirv-tools"] = f"unavailable ({type(err).__name__}: {err})"
    return answer


HANDLERS = {"spirv": handle_spirv, "vgf": handle_vgf, "version": handle_version}


def handle_line(line):
    req_id = None
    try:
        req = json.loads(line)
        if not isinstance(req, dict):
            raise ValueError("a request must be a JSON object")
        req_id = req.get("id")
        kind = req.get("kind")
        handler = HANDLERS.get(kind)
        if handler is None:
            raise ValueError(f"unknown kind {kind!r} (expected one of {sorted(HANDLERS)})")
        if kind != "version" and not isinstance(req.get("path"), str):
            raise ValueError("missing \"path\"")
        timeout = req.get("timeout_s", os.environ.get("SPVGRAPH_ME_WORKER_TIMEOUT_S"))
        timeout = float(timeout) if timeout not in (None, "") else 0.0
        # CPU time, not wall time: on a loaded machine a slow answer is not a hang.
        if timeout > 0 and hasattr(signal, "setitimer"):
            signal.signal(signal.SIGPROF, _alarm)
            signal.setitimer(signal.ITIMER_PROF, timeout)
        try:
            answer = handler(req)
        finally:
            if timeout > 0 and hasattr(signal, "setitimer"):
                signal.setitimer(signal.ITIMER_PROF, 0)
        answer = {"id": req_id, **answer}
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as err:  # noqa: BLE001 - a bad module must not end the worker
        if isinstance(err, _RequestTimeout) or isinstance(err.__cause__, _RequestTimeout):
            err = TimeoutError(str(err))
        answer = {
            "id": req_id,
            "ok": False,
            "error": f"{type(err).__name__}: {err}",
            "traceback": traceback.format_exc(),
        }
        cause = err.__cause__ or err.__context__
        if cause is not None:
            # the SPIR-V adapter wraps every failure in ValueError("Failed to parse ...")
            answer["cause"] = f"{type(cause).__name__}: {cause}"
    _send(answer)


class _RequestTimeout(BaseException):
    """BaseException, so that no `except Exception` on the way swallows it."""


def _alarm(_signum, _frame):
    raise _RequestTimeout("request timed out")


def _limit_memory():
    try:
        mb = int(os.environ.get("SPVGRAPH_ME_WORKER_MEM_MB", "4096"))
    except ValueError:
        mb = 4096
    if mb <= 0:
        return
    try:
        import resource

        limit = mb * 1024 * 1024
        _soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        if hard != resource.RLIM_INFINITY:
            limit = min(limit, hard)
        resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    except (ImportError, OSError, ValueError):
        pass


def main():
    _setup_streams()
    _limit_memory()
    stdin = sys.stdin.buffer
    while True:
        raw = stdin.readline()
        if not raw:
            return 0
        line = raw.decode("utf-8", "replace").strip()
        if not line:
            continue
        handle_line(line)


if __name__ == "__main__":
    sys.exit(main())
