//! `override` declarations (WGSL spec, "Override Declarations"): pipeline-overridable
//! constants, set at pipeline creation by name or `@id`, else their initializer; one without
//! either is a pipeline-creation error. Here a launch argument of the override's name or id
//! sets it (`--override NAME=VALUE`), converted to the override's type as the WebGPU API does
//! (WebGPU spec, "GPUProgrammableStage": the value is a double converted to the WGSL type;
//! an integer type needs an integral value in range).

use super::*;

impl Lower<'_> {
    /// The value of override `o`: the launch's, else its initializer.
    pub(super) fn override_value(
        &mut self,
        o: Handle<naga::Override>,
        at: ast::Span,
    ) -> Result<Expr, KernelError> {
        let ov = &self.module().overrides[o];
        let name = ov.name.clone().unwrap_or_default();
        let given = self
            .shader
            .overrides
            .get(&name)
            .or_else(|| {
                ov.id
                    .and_then(|i| self.shader.overrides.get(&i.to_string()))
            })
            .cloned();
        let scalar = match &self.module().types[ov.ty].inner {
            TypeInner::Scalar(s) => *s,
            _ => {
                return Err(KernelError::new(
                    at.line,
                    at.col,
                    format!("override `{name}`: only scalar overrides exist in WGSL"),
                ))
            }
        };
        let Some(text) = given else {
            return match ov.init {
                Some(e) => self.global_const(e, at).map_err(|_| {
                    KernelError::new(
                        at.line,
                        at.col,
                        format!(
                            "override `{name}`: its initializer is an expression the emulator \
                             does not evaluate yet; set it with --override {name}=VALUE"
                        ),
                    )
                }),
                None => Err(KernelError::new(
                    at.line,
                    at.col,
                    format!(
                        "override `{name}` has no initializer and no value: set it with \
                         --override {name}=VALUE (WGSL spec, Override Declarations: a \
                         pipeline-creation error otherwise)"
                    ),
                )),
            };
        };
        let bad = |why: &str| {
            KernelError::new(
                at.line,
                at.col,
                format!("override `{name}` = `{text}`: {why}"),
            )
        };
        let x: f64 = match text.trim() {
            "true" => 1.0,
            "false" => 0.0,
            t => t.parse().map_err(|_| bad("not a number"))?,
        };
        let int_in = |lo: f64, hi: f64| {
            if x.fract() != 0.0 || x < lo || x > hi {
                Err(bad("not an integer in the override's type's range"))
            } else {
                Ok(x)
            }
        };
        let lit = match (scalar.kind, scalar.width) {
            (ScalarKind::Bool, _) => Literal::Bool(x != 0.0),
            (ScalarKind::Sint, 4) => {
                Literal::I32(int_in(f64::from(i32::MIN), f64::from(i32::MAX))? as i32)
            }
            (ScalarKind::Uint, 4) => Literal::U32(int_in(0.0, f64::from(u32::MAX))? as u32),
            (ScalarKind::Float, 4) => Literal::F32(x as f32),
            (ScalarKind::Float, 2) => Literal::F16(half::f16::from_f64(x)),
            _ => return Err(bad("an override of this type is not emulated")),
        };
        Ok(literal(lit, at))
    }
}
