//! [`WebGpu::run_shader`]: a user's WGSL compute shader with its own buffers through the page's
//! WebGPU (the kernel view's "Run on this GPU"), every buffer read back.

use web_sys::{
    gpu_buffer_usage as usage, GpuBindGroupDescriptor, GpuBindGroupEntry, GpuBufferBinding,
    GpuErrorFilter,
};

use super::{js_message, read_words, WebGpu};
use crate::error::GpuError;
use crate::shader::{bind_groups, ShaderBuffer};

impl WebGpu {
    /// Compiles `wgsl`, binds the used `buffers` by `@group`/`@binding` (auto layout, which
    /// has slots only for the buffers the entry point uses: [`bind_groups`]), dispatches
    /// `workgroups` and returns each buffer's bytes after the run, in the order given (an
    /// unused buffer is uploaded and read back unchanged, so the page's diff still lines up
    /// with the shader's bindings).
    ///
    /// # Errors
    /// [`GpuError::Validation`] for a shader or binding the device refuses (from an error
    /// scope); out of memory; mapping.
    pub async fn run_shader(
        &self,
        wgsl: &str,
        entry: &str,
        buffers: &[ShaderBuffer],
        workgroups: [u32; 3],
    ) -> Result<Vec<Vec<u8>>, GpuError> {
        let d = &self.device;
        d.push_error_scope(GpuErrorFilter::OutOfMemory);
        d.push_error_scope(GpuErrorFilter::Validation);
        let pipeline = self.pipeline(wgsl, entry);
        let mut bufs = Vec::new();
        let mut reads = Vec::new();
        for b in buffers {
            let size = (b.bytes.len().max(4).div_ceil(16) * 16) as u32;
            let use_ = if b.uniform {
                usage::UNIFORM
            } else {
                usage::STORAGE
            };
            let buf = self.buffer(size, use_ | usage::COPY_DST | usage::COPY_SRC)?;
            let mut bytes = b.bytes.clone();
            bytes.resize(size as usize, 0);
            d.queue()
                .write_buffer_with_u32_and_u8_slice(&buf, 0, &bytes)
                .map_err(|e| GpuError::Validation(js_message(&e)))?;
            reads.push(self.buffer(size, usage::MAP_READ | usage::COPY_DST)?);
            bufs.push((buf, size));
        }
        let enc = d.create_command_encoder();
        let pass = enc.begin_compute_pass();
        pass.set_pipeline(&pipeline);
        for (g, slots) in &bind_groups(buffers) {
            let entries: Vec<GpuBindGroupEntry> = slots
                .iter()
                .filter_map(|&(binding, k)| {
                    let (buf, _) = bufs.get(k)?;
                    Some(GpuBindGroupEntry::new_with_gpu_buffer_binding(
                        binding,
                        &GpuBufferBinding::new(buf),
                    ))
                })
                .collect();
            let bind = d.create_bind_group(&GpuBindGroupDescriptor::new(
                &entries,
                &pipeline.get_bind_group_layout(*g),
            ));
            pass.set_bind_group(*g, Some(&bind));
        }
        pass.dispatch_workgroups_with_workgroup_count_y_and_workgroup_count_z(
            workgroups[0],
            workgroups[1],
            workgroups[2],
        );
        pass.end();
        for ((buf, size), read) in bufs.iter().zip(&reads) {
            enc.copy_buffer_to_buffer_with_u32_and_u32_and_u32(buf, 0, read, 0, *size)
                .map_err(|e| GpuError::Validation(js_message(&e)))?;
        }
        d.queue().submit(&[enc.finish()]);
        self.pop_scopes().await?;
        let mut out = Vec::new();
        for (read, b) in reads.iter().zip(buffers) {
            let words = read_words(read).await?;
            let mut bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
            bytes.truncate(b.bytes.len());
            out.push(bytes);
        }
        Ok(out)
    }
}
