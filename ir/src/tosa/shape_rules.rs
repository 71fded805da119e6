//! The output-shape formula and shape ERROR_IFs of each [`ShapeRule`].
//!
//! The common checks in `shape.rs` have already run: operand kinds, tensor
//! ranks from the catalogue, attribute lengths and axis ranges. The
//! `fixed::<_, N>` conversions below can therefore only fail if the
//! catalogue and a rule disagree, which is reported, not panicked on.

use super::shape::{fixed, Cx, Dims, ShapeArg, ShapeErrorKind, R};
use super::spec::{Form, ShapeRule};

type Shapes = Vec<Vec<u32>>;

/// Numerator formula, stride name and output name of one spatial axis.
type AxisNames = (&'static str, &'static str, &'static str);

impl Cx<'_> {
    pub(crate) fn apply_rule(&self) -> R<Shapes> {
        match self.spec.shape {
            ShapeRule::Identity | ShapeRule::Table => Ok(vec![self.first_tensor()?.to_vec()]),
            ShapeRule::Broadcast => self.broadcast(),
            ShapeRule::Argmax => self.argmax(),
            ShapeRule::Pool2d => self.pool2d(),
            ShapeRule::Conv2d => self.conv2d(false),
            ShapeRule::DepthwiseConv2d => self.conv2d(true),
            ShapeRule::Conv3d => self.conv3d(),
            ShapeRule::TransposeConv2d => self.transpose_conv2d(),
            ShapeRule::Matmul => self.matmul(),
            ShapeRule::Fft2d => self.fft(false),
            ShapeRule::Rfft2d => self.fft(true),
            ShapeRule::Reduce => self.reduce(),
            ShapeRule::Concat => self.concat(),
            ShapeRule::Pad => self.pad(),
            ShapeRule::Reshape => self.reshape(),
            ShapeRule::Slice => self.slice(),
            ShapeRule::Tile => self.tile(),
            ShapeRule::Transpose => self.transpose(),
            ShapeRule::Gather => self.gather(),
            ShapeRule::Scatter => self.scatter(),
            ShapeRule::Resize => self.resize(),
            ShapeRule::Rescale => self.rescale(),
        }
    }

    fn mismatch<T>(&self, what: &'static str) -> R<T> {
        self.err(ShapeErrorKind::Catalogue(what))
    }

    fn shape_n<const N: usize>(&self, name: &'static str) -> R<[u32; N]> {
        match fixed::<u32, N>(self.shape_named(name)?) {
            Some(a) => Ok(a),
            None => self.mismatch(name),
        }
    }

    fn ints_n<const N: usize>(&self, name: &'static str) -> R<[i64; N]> {
        match fixed::<i64, N>(self.ints_named(name)?) {
            Some(a) => Ok(a),
            None => self.mismatch(name),
        }
    }

    /// Indices of the operands that are tensor values.
    fn tensor_operands(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.args.len()).filter(|&i| matches!(self.spec.operand(i).map(|o| o.form), Some(Form::Tensor { .. })))
    }

    fn first_tensor(&self) -> R<&[u32]> {
        match self.tensor_operands().next() {
            Some(i) => self.shape(i),
            None => self.mismatch("tensor input"),
        }
    }

    fn broadcast(&self) -> R<Shapes> {
        let mut out: Vec<u32> = self.first_tensor()?.to_vec();
        let first_name = self.tensor_operands().next().and_then(|i| self.spec.operand(i)).map_or("?", |o| o.name);
        for i in self.tensor_operands().skip(1) {
            let shape = self.shape(i)?;
            let name = self.spec.operand(i).map_or("?", |o| o.name);
            if shape.len() != out.len() {
                return self.err(ShapeErrorKind::Rank {
                    name: name.to_string(),
                    rank: shape.len(),
                    expected: format!("{} (the rank of {first_name})", out.len()),
                });
            }
            for (dim, (o, &s)) in out.iter_mut().zip(shape).enumerate() {
                if *o == 1 {
                    *o = s;
                } else if s != 1 && s != *o {
                    return self.err(ShapeErrorKind::Broadcast {
                        dim,
                        left_name: first_name,
                        left: *o,
                        right_name: name,
                        right: s,
                    });
                }
            }
        }
        Ok(vec![out])
    }

    fn argmax(&self) -> R<Shapes> {
        let input = self.shape_named("input")?;
        let axis = self.axis()?;
        let mut out: Vec<u32> = input.iter().enumerate().filter(|&(i, _)| i != axis).map(|(_, &d)| d).collect();
        // TOSA's rank-0 result is not expressible in SPIR-V; [1] stands for it.
        if out.is_empty() {
            out.push(1);
        }
        Ok(vec![out])
    }

    fn reduce(&self) -> R<Shapes> {
        let mut out = self.shape_named("input")?.to_vec();
        let axis = self.axis()?;
        match out.get_mut(axis) {
            Some(d) => *d = 1,
            None => return self.mismatch("axis"),
        }
        Ok(vec![out])
    }

    fn check_strides(&self, names: &[&str], values: &[i64]) -> R<()> {
        for (n, &v) in names.iter().zip(values) {
            self.at_least(n, i128::from(v), 1)?;
        }
        Ok(())
    }

    fn pool2d(&self) -> R<Shapes> {
        let [n, ih, iw, c] = self.shape_n::<4>("input")?;
        let [ky, kx] = self.ints_n::<2>("kernel")?;
        let [sy, sx] = self.ints_n::<2>("stride")?;
        let pad = self.ints_n::<4>("pad")?;
        self.check_strides(&["kernel_y", "kernel_x"], &[ky, kx])?;
        self.check_strides(&["stride_y", "stride_x"], &[sy, sx])?;
        let names = ["pad_top", "pad_bottom", "pad_left", "pad_right"];
        let kernels = [("kernel_y", ky), ("kernel_y", ky), ("kernel_x", kx), ("kernel_x", kx)];
        for ((name, &p), (kname, k)) in names.iter().zip(&pad).zip(kernels) {
            self.at_least(name, i128::from(p), 0)?;
            if p >= k {
                return self.err(ShapeErrorKind::Value {
                    name: name.to_string(),
                    value: i128::from(p),
                    requirement: format!("must be < {kname} = {k}"),
                });
            }
        }
        let [pt, pb, pl, pr] = pad.map(i128::from);
        let oh = self.exact_div(
            "IH + pad_top + pad_bottom - kernel_y",
            i128::from(ih) + pt + pb - i128::from(ky),
            "stride_y",
            i128::from(sy),
        )? + 1;
        let ow = self.exact_div(
            "IW + pad_left + pad_right - kernel_x",
            i128::from(iw) + pl + pr - i128::from(kx),
            "stride_x",
            i128::from(sx),
        )? + 1;
        Ok(vec![vec![n, self.out_dim("OH", oh)?, self.out_dim("OW", ow)?, c]])
    }

    /// `BC` must be `channels` or 1.
    fn check_bias(&self, bias: u32, channels: i128, what: &str) -> R<()> {
        if bias != 1 && i128::from(bias) != channels {
            return self.err(ShapeErrorKind::Value {
                name: "bias length BC".into(),
                value: i128::from(bias),
                requirement: format!("must be 1 or {what} = {channels}"),
            });
        }
        Ok(())
    }

    fn check_pads(&self, names: &[&str], values: &[i64]) -> R<()> {
        for (n, &v) in names.iter().zip(values) {
            self.at_least(n, i128::from(v), 0)?;
        }
        Ok(())
    }

    /// One spatial axis of a convolution:
    /// `(I - 1 + pad_a + pad_b - (K - 1) * dilation) / stride + 1`, exact.
    fn conv_axis(
        &self,
        (expr, stride_name, out_name): AxisNames,
        (input, kernel): (u32, u32),
        (pad_a, pad_b): (i64, i64),
        dilation: i64,
        stride: i64,
    ) -> R<u32> {
        let num = i128::from(input) - 1 + i128::from(pad_a) + i128::from(pad_b)
            - (i128::from(kernel) - 1) * i128::from(dilation);
        let q = self.exact_div(expr, num, stride_name, i128::from(stride))?;
        self.out_dim(out_name, q + 1)
    }

    fn conv2d(&self, depthwise: bool) -> R<Shapes> {
        let [n, ih, iw, ic] = self.shape_n::<4>("input")?;
        let weight = self.shape_n::<4>("weight")?;
        let [bc] = self.shape_n::<1>("bias")?;
        let pad = self.ints_n::<4>("pad")?;
        let [sy, sx] = self.ints_n::<2>("stride")?;
        let [dy, dx] = self.ints_n::<2>("dilation")?;
        self.check_pads(&["pad_top", "pad_bottom", "pad_left", "pad_right"], &pad)?;
        self.check_strides(&["stride_y", "stride_x"], &[sy, sx])?;
        self.check_strides(&["dilation_y", "dilation_x"], &[dy, dx])?;
        let [pt, pb, pl, pr] = pad;
        let (kh, kw, oc) = if depthwise {
            let [kh, kw, c, m] = weight;
            self.same("input C", ic, "weight C", c)?;
            let oc = i128::from(ic) * i128::from(m);
            self.check_bias(bc, oc, "C * M")?;
            (kh, kw, self.out_dim("C * M", oc)?)
        } else {
            let [oc, kh, kw, wic] = weight;
            self.same("input IC", ic, "weight IC", wic)?;
            self.check_bias(bc, i128::from(oc), "OC")?;
            (kh, kw, oc)
        };
        let oh = self.conv_axis(
            ("IH - 1 + pad_top + pad_bottom - (KH - 1) * dilation_y", "stride_y", "OH"),
            (ih, kh),
            (pt, pb),
            dy,
            sy,
        )?;
        let ow = self.conv_axis(
            ("IW - 1 + pad_left + pad_right - (KW - 1) * dilation_x", "stride_x", "OW"),
            (iw, kw),
            (pl, pr),
            dx,
            sx,
        )?;
        Ok(vec![vec![n, oh, ow, oc]])
    }

    fn conv3d(&self) -> R<Shapes> {
        let [n, id, ih, iw, ic] = self.shape_n::<5>("input")?;
        let [oc, kd, kh, kw, wic] = self.shape_n::<5>("weight")?;
        let [bc] = self.shape_n::<1>("bias")?;
        let pad = self.ints_n::<6>("pad")?;
        let [sd, sy, sx] = self.ints_n::<3>("stride")?;
        let [dd, dy, dx] = self.ints_n::<3>("dilation")?;
        self.check_pads(&["pad_d0", "pad_d1", "pad_top", "pad_bottom", "pad_left", "pad_right"], &pad)?;
        self.check_strides(&["stride_d", "stride_y", "stride_x"], &[sd, sy, sx])?;
        self.check_strides(&["dilation_d", "dilation_y", "dilation_x"], &[dd, dy, dx])?;
        self.same("input IC", ic, "weight IC", wic)?;
        self.check_bias(bc, i128::from(oc), "OC")?;
        let [p0, p1, pt, pb, pl, pr] = pad;
        let od = self.conv_axis(
            ("ID - 1 + pad_d0 + pad_d1 - (KD - 1) * dilation_d", "stride_d", "OD"),
            (id, kd),
            (p0, p1),
            dd,
            sd,
        )?;
        let oh = self.conv_axis(
            ("IH - 1 + pad_top + pad_bottom - (KH - 1) * dilation_y", "stride_y", "OH"),
            (ih, kh),
            (pt, pb),
            dy,
            sy,
        )?;
        let ow = self.conv_axis(
            ("IW - 1 + pad_left + pad_right - (KW - 1) * dilation_x", "stride_x", "OW"),
            (iw, kw),
            (pl, pr),
            dx,
            sx,
        )?;
        Ok(vec![vec![n, od, oh, ow, oc]])
    }

    fn transpose_conv2d(&self) -> R<Shapes> {
        let [n, ih, iw, ic] = self.shape_n::<4>("input")?;
        let [oc, kh, kw, wic] = self.shape_n::<4>("weight")?;
        let [bc] = self.shape_n::<1>("bias")?;
        let out_pad = self.ints_n::<4>("out_pad")?;
        let [sy, sx] = self.ints_n::<2>("stride")?;
        self.check_strides(&["stride_y", "stride_x"], &[sy, sx])?;
        let names = ["out_pad_top", "out_pad_bottom", "out_pad_left", "out_pad_right"];
        let kernels = [("KH", kh), ("KH", kh), ("KW", kw), ("KW", kw)];
        for ((name, &p), (kname, k)) in names.iter().zip(&out_pad).zip(kernels) {
            if i128::from(p) <= -i128::from(k) {
                return self.err(ShapeErrorKind::Value {
                    name: name.to_string(),
                    value: i128::from(p),
                    requirement: format!("must be > -{kname} = -{k}"),
                });
            }
        }
        self.same("input IC", ic, "weight IC", wic)?;
        self.check_bias(bc, i128::from(oc), "OC")?;
        let [pt, pb, pl, pr] = out_pad.map(i128::from);
        let oh = (i128::from(ih) - 1) * i128::from(sy) + pt + pb + i128::from(kh);
        let ow = (i128::from(iw) - 1) * i128::from(sx) + pl + pr + i128::from(kw);
        Ok(vec![vec![n, self.out_dim("OH", oh)?, self.out_dim("OW", ow)?, oc]])
    }

    fn matmul(&self) -> R<Shapes> {
        let [n, h, c] = self.shape_n::<3>("A")?;
        let [bn, bc, w] = self.shape_n::<3>("B")?;
        self.same("A N", n, "B N", bn)?;
        self.same("A C", c, "B C", bc)?;
        Ok(vec![vec![n, h, w]])
    }

    fn power_of_two(&self, name: &'static str, value: u32) -> R<()> {
        if !value.is_power_of_two() {
            return self.err(ShapeErrorKind::NotPowerOfTwo { name, value });
        }
        Ok(())
    }

    fn fft(&self, real_input: bool) -> R<Shapes> {
        let real = self.shape_n::<3>("input_real")?;
        let [n, h, w] = real;
        if !real_input {
            let imag = self.shape_n::<3>("input_imag")?;
            if imag != real {
                return self.err(ShapeErrorKind::ShapeMismatch {
                    left_name: "input_real",
                    left: Dims(real.to_vec()),
                    right_name: "input_imag",
                    right: Dims(imag.to_vec()),
                });
            }
        }
        self.power_of_two("H", h)?;
        self.power_of_two("W", w)?;
        let out = if real_input { vec![n, h, w / 2 + 1] } else { real.to_vec() };
        Ok(vec![out.clone(), out])
    }

    fn concat(&self) -> R<Shapes> {
        let axis = self.axis()?;
        let first_index = 1;
        let first = self.shape(first_index)?;
        let mut total: i128 = 0;
        for i in first_index..self.args.len() {
            let shape = self.shape(i)?;
            let name = format!("input {}", i - first_index + 1);
            if shape.len() != first.len() {
                return self.err(ShapeErrorKind::Rank {
                    name,
                    rank: shape.len(),
                    expected: format!("{} (the rank of input 1)", first.len()),
                });
            }
            for (dim, (&a, &b)) in first.iter().zip(shape).enumerate() {
                if dim != axis && a != b {
                    return self.err(ShapeErrorKind::Mismatch {
                        left_name: format!("input 1 dim {dim}"),
                        left: i128::from(a),
                        right_name: format!("{name} dim {dim}"),
                        right: i128::from(b),
                    });
                }
            }
            total += shape.get(axis).map_or(0, |&d| i128::from(d));
        }
        let mut out = first.to_vec();
        match out.get_mut(axis) {
            Some(d) => *d = self.out_dim("dim[axis]", total)?,
            None => return self.mismatch("axis"),
        }
        Ok(vec![out])
    }

    fn pad(&self) -> R<Shapes> {
        let input = self.shape_named("input1")?;
        let padding = self.ints_named("padding")?;
        let mut out = Vec::with_capacity(input.len());
        for (i, &d) in input.iter().enumerate() {
            let before = padding.get(2 * i).copied().unwrap_or(0);
            let after = padding.get(2 * i + 1).copied().unwrap_or(0);
            self.at_least(&format!("padding[{}]", 2 * i), i128::from(before), 0)?;
            self.at_least(&format!("padding[{}]", 2 * i + 1), i128::from(after), 0)?;
            let dim = i128::from(before) + i128::from(d) + i128::from(after);
            out.push(self.out_dim(&format!("dim {i}"), dim)?);
        }
        Ok(vec![out])
    }

    fn reshape(&self) -> R<Shapes> {
        let input = self.shape_named("input1")?;
        let shape = self.ints_named("shape")?;
        let mut out = Vec::with_capacity(shape.len());
        for (i, &v) in shape.iter().enumerate() {
            self.at_least(&format!("shape[{i}]"), i128::from(v), 1)?;
            out.push(self.out_dim(&format!("dim {i}"), i128::from(v))?);
        }
        let count = |dims: &[u32]| dims.iter().try_fold(1u128, |acc, &d| acc.checked_mul(u128::from(d)));
        let (a, b) = (count(input), count(&out));
        if a.is_none() || a != b {
            let show = |c: Option<u128>| c.map_or_else(|| "more than 2^128".to_string(), |c| c.to_string());
            return self.err(ShapeErrorKind::ElementCount { input: show(a), shape: shape.to_vec(), output: show(b) });
        }
        Ok(vec![out])
    }

    fn slice(&self) -> R<Shapes> {
        let input = self.shape_named("input1")?;
        let start = self.ints_named("start")?;
        let size = self.ints_named("size")?;
        let mut out = Vec::with_capacity(input.len());
        for (i, ((&d, &st), &sz)) in input.iter().zip(start).zip(size).enumerate() {
            self.at_least(&format!("start[{i}]"), i128::from(st), 0)?;
            self.at_least(&format!("size[{i}]"), i128::from(sz), 1)?;
            let end = i128::from(st) + i128::from(sz);
            if end > i128::from(d) {
                return self.err(ShapeErrorKind::Value {
                    name: format!("start[{i}] + size[{i}]"),
                    value: end,
                    requirement: format!("must be <= input dim {i} = {d}"),
                });
            }
            out.push(self.out_dim(&format!("dim {i}"), i128::from(sz))?);
        }
        Ok(vec![out])
    }

    fn tile(&self) -> R<Shapes> {
        let input = self.shape_named("input1")?;
        let multiples = self.ints_named("multiples")?;
        let mut out = Vec::with_capacity(input.len());
        for (i, (&d, &m)) in input.iter().zip(multiples).enumerate() {
            self.at_least(&format!("multiples[{i}]"), i128::from(m), 1)?;
            out.push(self.out_dim(&format!("dim {i}"), i128::from(d) * i128::from(m))?);
        }
        Ok(vec![out])
    }

    fn transpose(&self) -> R<Shapes> {
        let input = self.shape_named("input1")?;
        let perms = self.ints_named("perms")?;
        let mut seen = vec![false; input.len()];
        let mut out = Vec::with_capacity(input.len());
        for &p in perms {
            let slot = usize::try_from(p).ok().and_then(|i| Some((i, seen.get_mut(i)?)));
            match slot {
                Some((i, s)) if !*s => {
                    *s = true;
                    out.push(input.get(i).copied().unwrap_or(1));
                }
                _ => return self.err(ShapeErrorKind::NotPermutation { perms: perms.to_vec(), rank: input.len() }),
            }
        }
        Ok(vec![out])
    }

    fn gather(&self) -> R<Shapes> {
        let [n, _k, c] = self.shape_n::<3>("values")?;
        let [n2, w] = self.shape_n::<2>("indices")?;
        self.same("values N", n, "indices N", n2)?;
        Ok(vec![vec![n, w, c]])
    }

    fn scatter(&self) -> R<Shapes> {
        let [n, k, c] = self.shape_n::<3>("values_in")?;
        let [n2, w] = self.shape_n::<2>("indices")?;
        let [n3, w2, c2] = self.shape_n::<3>("input")?;
        self.same("values_in N", n, "indices N", n2)?;
        self.same("values_in N", n, "input N", n3)?;
        self.same("indices W", w, "input W", w2)?;
        self.same("values_in C", c, "input C", c2)?;
        Ok(vec![vec![n, k, c]])
    }

    fn range(&self, name: &str, value: i64, lo: i128, hi_exclusive: i128, rule: &str) -> R<()> {
        let v = i128::from(value);
        if v < lo || v >= hi_exclusive {
            return self.err(ShapeErrorKind::Value {
                name: name.to_string(),
                value: v,
                requirement: format!("must be in {lo}..{hi_exclusive} ({rule})"),
            });
        }
        Ok(())
    }

    fn resize(&self) -> R<Shapes> {
        const MAX_DIM: i128 = 16384;
        const MAX_SCALE_N: i128 = 1 << 11;
        let [n, ih, iw, c] = self.shape_n::<4>("input")?;
        let scale = self.ints_n::<4>("scale")?;
        let [oy, ox] = self.ints_n::<2>("offset")?;
        let [by, bx] = self.ints_n::<2>("border")?;
        let names = ["scale_y_n", "scale_y_d", "scale_x_n", "scale_x_d"];
        self.check_strides(&names, &scale)?;
        let [yn, yd, xn, xd] = scale.map(i128::from);
        for (name, v) in [("scale_y_n", yn), ("scale_x_n", xn)] {
            if v > MAX_SCALE_N {
                return self.err(ShapeErrorKind::Value {
                    name: name.into(),
                    value: v,
                    requirement: format!("must be <= {MAX_SCALE_N}"),
                });
            }
        }
        for (dname, d, nname, sn) in [("scale_y_d", yd, "scale_y_n", yn), ("scale_x_d", xd, "scale_x_n", xn)] {
            if d >= 16 * sn {
                return self.err(ShapeErrorKind::Value {
                    name: dname.into(),
                    value: d,
                    requirement: format!("must be < 16 * {nname} = {} (at most 16x downscale)", 16 * sn),
                });
            }
        }
        self.range("offset_y", oy, -yn, 16 * yn, "-scale_y_n ..< 16 * scale_y_n")?;
        self.range("offset_x", ox, -xn, 16 * xn, "-scale_x_n ..< 16 * scale_x_n")?;
        self.range("border_y", by, -16 * yn, yn, "-16 * scale_y_n ..< scale_y_n")?;
        self.range("border_x", bx, -16 * xn, xn, "-16 * scale_x_n ..< scale_x_n")?;
        let oh = self.exact_div(
            "(IH - 1) * scale_y_n - offset_y + border_y",
            (i128::from(ih) - 1) * yn - i128::from(oy) + i128::from(by),
            "scale_y_d",
            yd,
        )? + 1;
        let ow = self.exact_div(
            "(IW - 1) * scale_x_n - offset_x + border_x",
            (i128::from(iw) - 1) * xn - i128::from(ox) + i128::from(bx),
            "scale_x_d",
            xd,
        )? + 1;
        let (oh, ow) = (self.out_dim("OH", oh)?, self.out_dim("OW", ow)?);
        for (name, v) in [("IH", ih), ("IW", iw), ("OH", oh), ("OW", ow)] {
            if i128::from(v) >= MAX_DIM {
                return self.err(ShapeErrorKind::Value {
                    name: name.into(),
                    value: i128::from(v),
                    requirement: format!("must be < {MAX_DIM}"),
                });
            }
        }
        Ok(vec![vec![n, oh, ow, c]])
    }

    fn rescale(&self) -> R<Shapes> {
        let input = self.shape_named("input")?;
        let flag = self.index("per_channel")?;
        for name in ["multiplier", "shift"] {
            let index = self.index(name)?;
            let Some(ShapeArg::Tensor(shape)) = self.args.get(index) else { continue };
            let per_channel = match self.args.get(flag) {
                Some(ShapeArg::Bool(b)) => *b,
                _ => {
                    return self.err(ShapeErrorKind::ArgKind {
                        index: flag,
                        name: "per_channel",
                        expected: "a bool (needed to check the multiplier/shift length)",
                    })
                }
            };
            let nc = if per_channel { input.last().copied().unwrap_or(1) } else { 1 };
            let len = shape.first().copied().unwrap_or(0);
            if len != nc {
                let why =
                    if per_channel { "the last input dimension (per_channel)" } else { "1 (per_channel = false)" };
                return self.err(ShapeErrorKind::Length {
                    name,
                    len: len as usize,
                    expected: format!("NC = {nc}, {why}"),
                });
            }
        }
        Ok(vec![input.to_vec()])
    }
}
