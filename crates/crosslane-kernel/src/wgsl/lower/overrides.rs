//! `override` declarations (WGSL spec, "Override Declarations"): pipeline-overridable
//! constants, set at pipeline creation by name or `@id`, else their initializer; one without
//! either is a pipeline-creation error. Here a launch argument of the override's name or id
//! sets it (`--override NAME=VALUE`), converted to the override's type as the WebGPU API does
//! (WebGPU spec, "GPUProgrammableStage": the value is a double converted to the WGSL type;
//! an integer type needs an integral value in range).

use super::*;

impl Lower<'_> {
    /// The value of override `o`: the launch's, else its initializer (an expression of other
    /// overrides and constants, see [`crate::wgsl::override_eval`]).
    pub(super) fn override_value(
        &mut self,
        o: Handle<naga::Override>,
        at: ast::Span,
    ) -> Result<Expr, KernelError> {
        let ov = &self.module().overrides[o];
        let name = ov.name.clone().unwrap_or_default();
        match self.shader.override_values.values.get(&o) {
            Some(Ok(l)) => Ok(literal(*l, at)),
            Some(Err(why)) => Err(KernelError::new(
                at.line,
                at.col,
                format!(
                    "override `{name}`: {why}; set it with --override {name}=VALUE (WGSL \
                     spec, Override Declarations: an override without a value is a \
                     pipeline-creation error)"
                ),
            )),
            None => Err(KernelError::new(
                at.line,
                at.col,
                format!("override `{name}` has no value; set it with --override {name}=VALUE"),
            )),
        }
    }
}
