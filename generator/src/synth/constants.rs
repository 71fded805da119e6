//! Tensor constants in every legal form: `OpConstantNull` (all zero),
//! `OpConstantCompositeReplicateEXT` (all equal), `OpGraphConstantARM` (data
//! bound at pipeline creation), and `OpConstantComposite`, nested above
//! rank 1, whose constituents may themselves be null or replicated
//! sub-tensors and whose zero scalars may be `OpConstantNull`.

use super::Synth;
use spvgraph_ir::elem::ElemType;
use spvgraph_ir::inst::Id;
use spvgraph_ir::tensor::TensorData;

/// How often an all-zero (all-equal) tensor or sub-tensor is written null
/// (replicated) rather than element by element.
const COLLAPSE: f64 = 0.8;

impl Synth<'_, '_> {
    /// Emits a tensor constant: `OpConstantNull` when all zero,
    /// `OpConstantCompositeReplicateEXT` when all equal, `OpGraphConstantARM`
    /// with probability `graph_constant_p` (and always past `inline_limit`
    /// elements), else an inline `OpConstantComposite`.
    pub(crate) fn tensor_constant(
        &mut self,
        elem: ElemType,
        shape: &[u32],
        data: &TensorData,
        graph_constant_p: f64,
        inline_limit: u64,
    ) -> Id {
        let bits = data.to_bits();
        let ty = self.b.type_tensor(elem, Some(shape));
        let all_zero = bits.iter().all(|&b| b == 0);
        let uniform = bits.windows(2).all(|w| w[0] == w[1]);
        if all_zero && self.dice.chance(COLLAPSE) {
            self.feature("const:null");
            return self.b.const_null(ty);
        }
        if uniform && !bits.is_empty() && self.dice.chance(COLLAPSE) {
            self.feature(if shape.len() > 1 { "const:replicate-rank>1" } else { "const:replicate" });
            let scalar = self.b.const_scalar(elem, bits[0]);
            return self.b.const_replicate(ty, scalar);
        }
        if bits.len() as u64 > inline_limit || self.dice.chance(graph_constant_p) || shape.is_empty() {
            return self.graph_constant(ty, data.clone());
        }
        let null_zeros = self.dice.chance(self.cfg.probs.null_scalar);
        self.feature(if shape.len() > 1 { "const:composite-nested" } else { "const:composite" });
        self.composite(elem, shape, &bits, null_zeros)
    }

    /// An `OpConstantComposite` of `shape` (non-empty, matching `bits`):
    /// scalars for rank 1, else one constituent per row, each null or
    /// replicated when its elements allow, else a nested composite.
    fn composite(&mut self, elem: ElemType, shape: &[u32], bits: &[u64], null_zeros: bool) -> Id {
        let ty = self.b.type_tensor(elem, Some(shape));
        let parts: Vec<Id> = match shape {
            [_] => bits.iter().map(|&b| self.scalar(elem, b, null_zeros)).collect(),
            [outer, rest @ ..] => {
                let row_ty = self.b.type_tensor(elem, Some(rest));
                let row_len = (bits.len() / (*outer).max(1) as usize).max(1);
                bits.chunks(row_len)
                    .map(|row| {
                        if row.iter().all(|&b| b == 0) && self.dice.chance(COLLAPSE) {
                            self.feature("const:composite-mixed-rows");
                            self.b.const_null(row_ty)
                        } else if row.windows(2).all(|w| w[0] == w[1]) && self.dice.chance(COLLAPSE) {
                            self.feature("const:composite-mixed-rows");
                            let scalar = self.scalar(elem, row[0], null_zeros);
                            self.b.const_replicate(row_ty, scalar)
                        } else {
                            self.composite(elem, rest, row, null_zeros)
                        }
                    })
                    .collect()
            }
            [] => Vec::new(),
        };
        self.b.const_composite(ty, parts)
    }

    /// A scalar constant of `elem`: `OpConstantNull` for a zero when
    /// `null_zeros`, else `OpConstant`/`OpConstantTrue`/`OpConstantFalse`.
    fn scalar(&mut self, elem: ElemType, bits: u64, null_zeros: bool) -> Id {
        if bits == 0 && null_zeros {
            self.feature("const:null-scalar");
            let ty = self.b.type_elem(elem);
            return self.b.const_null(ty);
        }
        self.b.const_scalar(elem, bits)
    }

    /// Whether a zero scalar attribute is written `OpConstantNull` (records
    /// the construct when it is).
    pub(crate) fn null_scalar(&mut self) -> bool {
        let yes = self.dice.chance(self.cfg.probs.null_scalar);
        if yes {
            self.feature("const:null-scalar");
        }
        yes
    }

    fn graph_constant(&mut self, ty: Id, data: TensorData) -> Id {
        let gc = self.next_graph_constant;
        self.next_graph_constant += 1;
        self.graph_constants.insert(gc, data);
        self.feature("const:graph-constant");
        self.b.graph_constant(ty, gc)
    }
}
