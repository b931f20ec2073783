//! [`NativeGpu::run_shader`]: a user's WGSL compute shader with its own buffers, dispatched once,
//! every storage buffer read back.

use super::{words_to_bytes, NativeGpu};
use crate::error::GpuError;
use crate::shader::{bind_groups, ShaderBuffer};

impl NativeGpu {
    /// Compiles `wgsl`, binds the used `buffers` by `@group`/`@binding` (the pipeline's layout
    /// comes from the shader: [`bind_groups`]), dispatches `workgroups` and returns every
    /// buffer's bytes after the run, in the order given (an unused one unchanged).
    ///
    /// # Errors
    /// [`GpuError::Validation`] for a shader or binding the device refuses; out of memory,
    /// device lost, mapping.
    pub fn run_shader(
        &self,
        wgsl: &str,
        entry: &str,
        buffers: &[ShaderBuffer],
        workgroups: [u32; 3],
    ) -> Result<Vec<Vec<u8>>, GpuError> {
        self.run_shader_with(wgsl, entry, buffers, workgroups, &[])
    }

    /// As [`Self::run_shader`], with pipeline-overridable constants: each `override` of the
    /// shader named (or `@id`) in `constants` takes that value (WebGPU spec,
    /// "GPUProgrammableStage": `constants`, doubles converted to the override's type).
    ///
    /// # Errors
    /// As [`Self::run_shader`]; an unknown name or a value out of the override's range is a
    /// validation error.
    pub fn run_shader_with(
        &self,
        wgsl: &str,
        entry: &str,
        buffers: &[ShaderBuffer],
        workgroups: [u32; 3],
        constants: &[(String, f64)],
    ) -> Result<Vec<Vec<u8>>, GpuError> {
        let constants: Vec<(&str, f64)> = constants.iter().map(|(k, v)| (k.as_str(), *v)).collect();
        let d = &self.device;
        let scopes = self.push_scopes();
        let module = d.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("crosslane user shader"),
            source: wgpu::ShaderSource::Wgsl(wgsl.into()),
        });
        let pipeline = d.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
            label: Some("crosslane user shader"),
            layout: None,
            module: &module,
            entry_point: Some(entry),
            compilation_options: wgpu::PipelineCompilationOptions {
                constants: &constants,
                ..Default::default()
            },
            cache: None,
        });
        self.pop_scopes(scopes)?;
        let scopes = self.push_scopes();
        let mut gpu_bufs = Vec::new();
        let mut readbacks = Vec::new();
        for b in buffers {
            // Sizes rounded up to 16 bytes (uniform buffers need it; storage is harmless).
            let size = (b.bytes.len().max(4).div_ceil(16) * 16) as u64;
            let usage = if b.uniform {
                wgpu::BufferUsages::UNIFORM
                    | wgpu::BufferUsages::COPY_DST
                    | wgpu::BufferUsages::COPY_SRC
            } else {
                wgpu::BufferUsages::STORAGE
                    | wgpu::BufferUsages::COPY_DST
                    | wgpu::BufferUsages::COPY_SRC
            };
            let buf = d.create_buffer(&wgpu::BufferDescriptor {
                label: Some(&b.name),
                size,
                usage,
                mapped_at_creation: false,
            });
            let mut bytes = b.bytes.clone();
            bytes.resize(size as usize, 0);
            self.queue.write_buffer(&buf, 0, &bytes);
            readbacks.push(self.readback_buffer(size));
            gpu_bufs.push((buf, size));
        }
        let groups = bind_groups(buffers);
        let mut binds = Vec::new();
        for (g, slots) in &groups {
            let entries: Vec<wgpu::BindGroupEntry> = slots
                .iter()
                .filter_map(|&(binding, k)| {
                    let (buf, _) = gpu_bufs.get(k)?;
                    Some(wgpu::BindGroupEntry {
                        binding,
                        resource: buf.as_entire_binding(),
                    })
                })
                .collect();
            binds.push(d.create_bind_group(&wgpu::BindGroupDescriptor {
                label: Some("crosslane user shader"),
                layout: &pipeline.get_bind_group_layout(*g),
                entries: &entries,
            }));
        }
        let mut enc = d.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: None });
        {
            let mut pass = enc.begin_compute_pass(&wgpu::ComputePassDescriptor {
                label: Some("crosslane user shader"),
                timestamp_writes: None,
            });
            pass.set_pipeline(&pipeline);
            for ((g, _), bind) in groups.iter().zip(&binds) {
                pass.set_bind_group(*g, bind, &[]);
            }
            pass.dispatch_workgroups(workgroups[0], workgroups[1], workgroups[2]);
        }
        for ((buf, size), rb) in gpu_bufs.iter().zip(&readbacks) {
            enc.copy_buffer_to_buffer(buf, 0, rb, 0, *size);
        }
        self.pop_scopes(scopes)?;
        let refs: Vec<&wgpu::Buffer> = readbacks.iter().collect();
        let (words, _) = self.submit_and_read(enc, &refs, None)?;
        Ok(words
            .iter()
            .zip(buffers)
            .map(|(w, b)| {
                let mut v = words_to_bytes(w);
                v.truncate(b.bytes.len());
                v
            })
            .collect())
    }
}
