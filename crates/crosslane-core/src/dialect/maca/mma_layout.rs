//! Which lane and register slot hold each element of A, B, C and D for the MACA warp MMA
//! builtins (seed 002 §3.6). THE one place the layout is defined: correct it here.
//!
//! Source: seed 002 gives the shapes and per-lane operand types (e.g. `mma_16x16x4f32(float a,
//! float b, v4f32 c)`) but no layout. MACA follows the AMD CDNA matrix-core ISA family, so we use
//! the layouts of the AMD MFMA instructions of the same shapes and per-lane operand sizes
//! (v_mfma_f32_16x16x4f32, v_mfma_f32_16x16x16f16, v_mfma_i32_16x16x16i8, v_mfma_i32_16x16x32_i8,
//! v_mfma_f32_16x16x16bf16_1k, v_mfma_f64_16x16x4f64, v_mfma_f32_16x16x8_xf32), as the AMD Matrix
//! Instruction Calculator (ROCm/amd_matrix_instruction_calculator, gfx9 register layout) and the
//! CDNA3 ISA give them, for one block (M = N = 16) on a 64-lane wave:
//!
//! * A\[i\]\[k\] (16 × K) and B\[k\]\[j\] (K × 16): with `e = K / 4` elements per lane,
//!   lane = 16·⌊k / e⌋ + (i for A, j for B), slot = k mod e.
//! * C\[i\]\[j\], D\[i\]\[j\] with 32-bit elements: lane = 16·⌊i / 4⌋ + j, slot = i mod 4.
//! * C\[i\]\[j\], D\[i\]\[j\] with 64-bit elements (f64): lane = 16·(i mod 4) + j, slot = ⌊i / 4⌋.
//!
//! This is an inference from the ISA family, not a MetaX statement; the reference view says so.

use serde::Serialize;

/// One operand or the result of `D = A·B + C`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum Matrix {
    /// M × K input.
    A,
    /// K × N input.
    B,
    /// M × N accumulator input.
    C,
    /// M × N result.
    D,
}

/// How C and D are spread over lanes (see the module doc).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum OutputLayout {
    /// 32-bit elements: four consecutive rows per 16-lane group, one row per register.
    Rows32,
    /// 64-bit elements: one row per 16-lane group and register pair.
    Rows64,
}

/// The layout of one MMA shape (one block, M = N = 16, 64 lanes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct MmaLayout {
    /// Rows of A, C, D.
    pub m: usize,
    /// Columns of B, C, D.
    pub n: usize,
    /// Columns of A = rows of B.
    pub k: usize,
    /// C/D placement.
    pub output: OutputLayout,
}

/// Every MACA MMA builtin's layout, keyed by the builtin's name: the table to correct.
pub const LAYOUTS: &[(&str, MmaLayout)] = &[
    (
        "__builtin_mxc_mma_16x16x16f16",
        layout(16, OutputLayout::Rows32),
    ),
    (
        "__builtin_mxc_mma_16x16x4f32",
        layout(4, OutputLayout::Rows32),
    ),
    (
        "__builtin_mxc_mma_16x16x16i8",
        layout(16, OutputLayout::Rows32),
    ),
    (
        "__builtin_mxc_mma_16x16x32i8",
        layout(32, OutputLayout::Rows32),
    ),
    (
        "__builtin_mxc_mma_16x16x16bf16",
        layout(16, OutputLayout::Rows32),
    ),
    (
        "__builtin_mxc_mma_16x16x4f64",
        layout(4, OutputLayout::Rows64),
    ),
    (
        "__builtin_mxc_mma_16x16x8tf32",
        layout(8, OutputLayout::Rows32),
    ),
];

const fn layout(k: usize, output: OutputLayout) -> MmaLayout {
    MmaLayout {
        m: 16,
        n: 16,
        k,
        output,
    }
}

/// The layout of the MMA builtin `name` (full name), if it is one.
pub fn layout_of(name: &str) -> Option<&'static MmaLayout> {
    LAYOUTS.iter().find(|(n, _)| *n == name).map(|(_, l)| l)
}

/// Lanes in a MACA warp.
pub const WARP: usize = 64;

impl MmaLayout {
    /// Input elements per lane of A and B (`K / 4`: 1 for x4, 2 for x8, 4 for x16, 8 for x32).
    pub fn input_slots(&self) -> usize {
        (self.k * self.m / WARP).max(1)
    }

    /// Registers (slots) per lane of `matrix`: `input_slots` for A and B, 4 for C and D.
    pub fn slots(&self, matrix: Matrix) -> usize {
        match matrix {
            Matrix::A | Matrix::B => self.input_slots(),
            Matrix::C | Matrix::D => self.m * self.n / WARP,
        }
    }

    /// Rows × columns of `matrix`.
    pub fn dims(&self, matrix: Matrix) -> (usize, usize) {
        match matrix {
            Matrix::A => (self.m, self.k),
            Matrix::B => (self.k, self.n),
            Matrix::C | Matrix::D => (self.m, self.n),
        }
    }

    /// The (lane, slot) holding `matrix[row][col]`, or `None` outside the matrix.
    pub fn locate(&self, matrix: Matrix, row: usize, col: usize) -> Option<(usize, usize)> {
        let (rows, cols) = self.dims(matrix);
        if row >= rows || col >= cols {
            return None;
        }
        let e = self.input_slots();
        Some(match matrix {
            // A[i][k]: k walks slots first, then 16-lane groups; i picks the lane in the group.
            Matrix::A => (16 * (col / e) + row, col % e),
            // B[k][j]: the same with j in place of i.
            Matrix::B => (16 * (row / e) + col, row % e),
            Matrix::C | Matrix::D => match self.output {
                OutputLayout::Rows32 => (16 * (row / 4) + col, row % 4),
                OutputLayout::Rows64 => (16 * (row % 4) + col, row / 4),
            },
        })
    }

    /// The element `(row, col)` of `matrix` held by `lane` in `slot` (the inverse of
    /// [`MmaLayout::locate`]), or `None` if that register holds none.
    pub fn element_at(&self, matrix: Matrix, lane: usize, slot: usize) -> Option<(usize, usize)> {
        let (rows, cols) = self.dims(matrix);
        (0..rows)
            .flat_map(|r| (0..cols).map(move |c| (r, c)))
            .find(|&(r, c)| self.locate(matrix, r, c) == Some((lane, slot)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every register of every matrix holds exactly one element, and locate/element_at agree.
    #[test]
    fn layouts_are_bijections() {
        for (name, l) in LAYOUTS {
            for m in [Matrix::A, Matrix::B, Matrix::C, Matrix::D] {
                let (rows, cols) = l.dims(m);
                assert_eq!(rows * cols, WARP * l.slots(m), "{name} {m:?}");
                let mut seen = std::collections::HashSet::new();
                for r in 0..rows {
                    for c in 0..cols {
                        let (lane, slot) = l.locate(m, r, c).unwrap();
                        assert!(lane < WARP && slot < l.slots(m), "{name} {m:?}");
                        assert!(seen.insert((lane, slot)), "{name} {m:?} twice");
                        assert_eq!(l.element_at(m, lane, slot), Some((r, c)));
                    }
                }
            }
        }
    }

    /// AMD calculator spot checks (v_mfma_f32_16x16x4f32, v_mfma_f64_16x16x4f64).
    #[test]
    fn amd_calculator_spot_checks() {
        let f32x4 = layout_of("__builtin_mxc_mma_16x16x4f32").unwrap();
        assert_eq!(f32x4.locate(Matrix::A, 5, 3), Some((53, 0)));
        assert_eq!(f32x4.locate(Matrix::D, 5, 3), Some((19, 1)));
        let f64x4 = layout_of("__builtin_mxc_mma_16x16x4f64").unwrap();
        assert_eq!(f64x4.locate(Matrix::D, 5, 3), Some((19, 1)));
        assert_eq!(f64x4.locate(Matrix::D, 6, 3), Some((35, 1)));
        let i8x32 = layout_of("__builtin_mxc_mma_16x16x32i8").unwrap();
        assert_eq!(i8x32.locate(Matrix::B, 17, 2), Some((34, 1)));
    }
}
