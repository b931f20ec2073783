//! Browser dispatch through the page's WebGPU, driven directly with `web-sys` (wasm32 only).
//!
//! Why not wgpu here: wgpu 30's WebGPU backend never requests the browser's `subgroups` feature
//! (its feature table lacks the entry; <https://github.com/gfx-rs/wgpu/issues/10146>), so a device it creates rejects
//! `enable subgroups;`. Calling WebGPU through web-sys lets the device request `subgroups` itself
//! (BROWSER.md, workaround 2) and keeps wgpu out of the wasm bundle. web-sys gates WebGPU behind
//! `--cfg=web_sys_unstable_apis`, set for the wasm32 target in the workspace `.cargo/config.toml`.
//!
//! Everything WebGPU-specific stays in this module; the WGSL, the lowering choice, the sort plan
//! and the comparison are the same code the native path uses. Shaders use
//! [`ShaderTarget::Browser`] (`enable subgroups;` first). A cross-lane step is timed with
//! timestamp queries around its compute pass when the adapter offers `timestamp-query` (browsers
//! quantize them, Chromium to 100 µs; a zero or backwards interval falls back); otherwise, and
//! for the sort, wall clock (`Date.now()`, milliseconds) around submit and read-back. The
//! [`Timing`] says which.

use crosslane_core::Step;
use js_sys::{JsString, Reflect, Uint8Array};
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{
    gpu_buffer_usage as usage, gpu_map_mode, Gpu, GpuAdapter, GpuAutoLayoutMode,
    GpuBindGroupDescriptor, GpuBindGroupEntry, GpuBuffer, GpuBufferBinding, GpuBufferDescriptor,
    GpuComputePassDescriptor, GpuComputePassTimestampWrites, GpuComputePipeline,
    GpuComputePipelineDescriptor, GpuDevice, GpuDeviceDescriptor, GpuErrorFilter,
    GpuProgrammableStage, GpuQuerySetDescriptor, GpuQueryType, GpuShaderModuleDescriptor,
};

use crate::compare::{compare, Comparison, DeviceFacts, GpuRun, Timing, TimingSource};
use crate::error::{first_line, GpuError};
use crate::network::{sort_passes, sort_wgsl, SortPass, STAGE_STRIDE};
use crate::wgsl::{
    decode_results, lower_step, LoweringChoice, ShaderTarget, SubgroupCaps, RESULT_WORDS_PER_LANE,
};

// A user's WGSL shader with its own buffers (the kernel view's "Run on this GPU").
#[path = "web_shader.rs"]
mod web_shader;

/// An open WebGPU device in the page.
#[derive(Debug)]
pub struct WebGpu {
    device: GpuDevice,
    facts: DeviceFacts,
    caps: SubgroupCaps,
}

fn js_message(e: &JsValue) -> String {
    let text = Reflect::get(e, &JsValue::from_str("message"))
        .ok()
        .and_then(|m| m.as_string())
        .or_else(|| e.as_string())
        .unwrap_or_else(|| format!("{e:?}"));
    first_line(&text)
}

/// `navigator.gpu` of the window or worker, if WebGPU is exposed.
fn navigator_gpu() -> Option<Gpu> {
    let global = js_sys::global();
    let navigator = Reflect::get(&global, &JsValue::from_str("navigator")).ok()?;
    let gpu = Reflect::get(&navigator, &JsValue::from_str("gpu")).ok()?;
    if gpu.is_undefined() || gpu.is_null() {
        None
    } else {
        Some(gpu.unchecked_into())
    }
}

impl WebGpu {
    /// Requests an adapter and a device with `subgroups` when the adapter offers it.
    ///
    /// # Errors
    /// [`GpuError::NoAdapter`] when `navigator.gpu` is missing or no adapter is returned (Chromium
    /// without `--enable-unsafe-webgpu` on a machine without a GPU);
    /// [`GpuError::RequestDevice`] when the device request is rejected.
    pub async fn open() -> Result<WebGpu, GpuError> {
        let gpu = navigator_gpu().ok_or_else(|| {
            GpuError::NoAdapter("this browser exposes no navigator.gpu (WebGPU)".into())
        })?;
        let adapter: GpuAdapter = gpu
            .request_adapter()
            .await
            .map_err(|e| GpuError::NoAdapter(js_message(&e)))?
            .into_option()
            .ok_or_else(|| {
                GpuError::NoAdapter("navigator.gpu.requestAdapter() returned null".into())
            })?;
        let subgroups = adapter.features().has("subgroups");
        let timestamps = adapter.features().has("timestamp-query");
        // `enable f16;` in a user's shader (the kernel view's "Run on this GPU").
        let f16 = adapter.features().has("shader-f16");
        let descriptor = GpuDeviceDescriptor::new();
        descriptor.set_label("crosslane");
        let features: Vec<JsString> = [
            (subgroups, "subgroups"),
            (timestamps, "timestamp-query"),
            (f16, "shader-f16"),
        ]
        .into_iter()
        .filter(|(has, _)| *has)
        .map(|(_, name)| JsString::from(name))
        .collect();
        if !features.is_empty() {
            descriptor.set_required_features(&features);
        }
        let device = adapter
            .request_device_with_descriptor(&descriptor)
            .await
            .map_err(|e| GpuError::RequestDevice(js_message(&e)))?;
        let info = adapter.info();
        let caps = SubgroupCaps {
            supported: subgroups,
            min_size: if subgroups {
                info.subgroup_min_size()
            } else {
                0
            },
            max_size: if subgroups {
                info.subgroup_max_size()
            } else {
                0
            },
        };
        let name = [
            info.vendor(),
            info.architecture(),
            info.device(),
            info.description(),
        ]
        .into_iter()
        .filter(|s| !s.is_empty())
        .collect::<Vec<_>>()
        .join(" ");
        let facts = DeviceFacts {
            adapter: if name.is_empty() {
                "WebGPU adapter".into()
            } else {
                name
            },
            backend: "webgpu".into(),
            is_fallback: info.is_fallback_adapter(),
            subgroups,
            subgroup_min_size: caps.min_size,
            subgroup_max_size: caps.max_size,
            timestamps,
        };
        Ok(WebGpu {
            device,
            facts,
            caps,
        })
    }

    /// The device's facts (adapter, `isFallbackAdapter`, subgroup sizes).
    pub fn facts(&self) -> &DeviceFacts {
        &self.facts
    }

    /// The subgroup facts used to choose lowerings.
    pub fn caps(&self) -> SubgroupCaps {
        self.caps
    }

    /// Runs `step` on the device and returns its lanes.
    ///
    /// # Errors
    /// As the native path: no lowering, validation (from an error scope), out of memory, mapping.
    pub async fn run_step(&self, step: &Step, choice: LoweringChoice) -> Result<GpuRun, GpuError> {
        let kernel = lower_step(
            step,
            &self.caps,
            choice,
            ShaderTarget::Browser,
            &self.facts.adapter,
        )?;
        let d = &self.device;
        d.push_error_scope(GpuErrorFilter::OutOfMemory);
        d.push_error_scope(GpuErrorFilter::Validation);
        let pipeline = self.pipeline(&kernel.wgsl, "main");
        let values = self.buffer_with(&kernel.values, usage::STORAGE | usage::COPY_DST)?;
        let operands = self.buffer_with(&kernel.operands, usage::STORAGE | usage::COPY_DST)?;
        let out_bytes = kernel.lanes * RESULT_WORDS_PER_LANE as u32 * 4;
        let results = self.buffer(out_bytes, usage::STORAGE | usage::COPY_SRC)?;
        let read = self.buffer(out_bytes, usage::MAP_READ | usage::COPY_DST)?;
        let bind = self.bind_group(
            &pipeline,
            &[(&values, None), (&operands, None), (&results, None)],
        );
        let enc = d.create_command_encoder();
        // Two timestamps (pass start, pass end) resolved into 16 bytes, when the device has them.
        let stamps = if self.facts.timestamps {
            let set = d
                .create_query_set(&GpuQuerySetDescriptor::new(2, GpuQueryType::Timestamp))
                .map_err(|e| GpuError::Validation(js_message(&e)))?;
            let resolve = self.buffer(16, usage::QUERY_RESOLVE | usage::COPY_SRC)?;
            let read = self.buffer(16, usage::MAP_READ | usage::COPY_DST)?;
            Some((set, resolve, read))
        } else {
            None
        };
        let pass_descriptor = GpuComputePassDescriptor::new();
        if let Some((set, _, _)) = &stamps {
            let writes = GpuComputePassTimestampWrites::new(set);
            writes.set_beginning_of_pass_write_index(0);
            writes.set_end_of_pass_write_index(1);
            pass_descriptor.set_timestamp_writes(&writes);
        }
        let pass = enc.begin_compute_pass_with_descriptor(&pass_descriptor);
        pass.set_pipeline(&pipeline);
        pass.set_bind_group(0, Some(&bind));
        pass.dispatch_workgroups(1);
        pass.end();
        enc.copy_buffer_to_buffer_with_u32_and_u32_and_u32(&results, 0, &read, 0, out_bytes)
            .map_err(|e| GpuError::Validation(js_message(&e)))?;
        if let Some((set, resolve, stamp_read)) = &stamps {
            enc.resolve_query_set_with_u32(set, 0, 2, resolve, 0);
            enc.copy_buffer_to_buffer_with_u32_and_u32_and_u32(resolve, 0, stamp_read, 0, 16)
                .map_err(|e| GpuError::Validation(js_message(&e)))?;
        }
        let start = js_sys::Date::now();
        d.queue().submit(&[enc.finish()]);
        self.pop_scopes().await?;
        let words = read_words(&read).await?;
        let wall = Timing {
            nanos: ((js_sys::Date::now() - start) * 1e6) as u64,
            source: TimingSource::WallClock,
        };
        let timing = match &stamps {
            Some((_, _, stamp_read)) => {
                let t = read_words(stamp_read).await?;
                let at = |i: usize| {
                    u64::from(t.get(2 * i).copied().unwrap_or(0))
                        | (u64::from(t.get(2 * i + 1).copied().unwrap_or(0)) << 32)
                };
                match at(1).checked_sub(at(0)) {
                    Some(nanos) if nanos > 0 => Timing {
                        nanos,
                        source: TimingSource::GpuTimestamps,
                    },
                    _ => wall,
                }
            }
            None => wall,
        };
        let (lanes, observed) = decode_results(&kernel, &words)?;
        Ok(GpuRun {
            lanes,
            observed_subgroup_size: observed,
            lowering: kernel.lowering,
            timing,
            hardware_part: kernel.hardware_part(),
            formula_part: kernel.formula_part(),
            wgsl: kernel.wgsl,
        })
    }

    /// Runs `step` and compares it with the emulator lane by lane.
    ///
    /// # Errors
    /// As [`WebGpu::run_step`].
    pub async fn compare_step(
        &self,
        step: &Step,
        choice: LoweringChoice,
    ) -> Result<(Comparison, GpuRun), GpuError> {
        let run = self.run_step(step, choice).await?;
        Ok((compare(step, &self.facts, &run), run))
    }

    /// Sorts `keys` ascending with the odd-even merge network, moving `vals` with them; returns
    /// keys, values and the wall time.
    ///
    /// # Errors
    /// [`GpuError::Unsupported`] on `len` for mismatched or too long inputs; device errors.
    pub async fn sort(
        &self,
        keys: &[u32],
        vals: &[u32],
    ) -> Result<(Vec<u32>, Vec<u32>, Timing), GpuError> {
        if keys.len() != vals.len() {
            return Err(GpuError::unsupported(
                "len",
                "keys and values differ in length",
            ));
        }
        let n =
            u32::try_from(keys.len()).map_err(|_| GpuError::unsupported("len", "too many keys"))?;
        let passes = sort_passes(n)?;
        let wall = |ms: f64| Timing {
            nanos: (ms * 1e6) as u64,
            source: TimingSource::WallClock,
        };
        if passes.is_empty() {
            return Ok((keys.to_vec(), vals.to_vec(), wall(0.0)));
        }
        let d = &self.device;
        d.push_error_scope(GpuErrorFilter::OutOfMemory);
        d.push_error_scope(GpuErrorFilter::Validation);
        let code = sort_wgsl();
        let tile = self.pipeline(&code, "tile_sort");
        let global = self.pipeline(&code, "stage_global");
        let data = usage::STORAGE | usage::COPY_DST | usage::COPY_SRC;
        let kbuf = self.buffer_with(keys, data)?;
        let vbuf = self.buffer_with(vals, data)?;
        let stride = STAGE_STRIDE as usize;
        let mut stage_words = vec![0u32; passes.len() * stride / 4];
        for (i, p) in passes.iter().enumerate() {
            stage_words[i * stride / 4..i * stride / 4 + 4].copy_from_slice(&p.params(n));
        }
        let stages = self.buffer_with(&stage_words, usage::UNIFORM | usage::COPY_DST)?;
        let bytes = n * 4;
        let kread = self.buffer(bytes, usage::MAP_READ | usage::COPY_DST)?;
        let vread = self.buffer(bytes, usage::MAP_READ | usage::COPY_DST)?;
        let enc = d.create_command_encoder();
        let pass = enc.begin_compute_pass();
        for (i, sp) in passes.iter().enumerate() {
            // Auto layouts differ per pipeline, so each pass gets its own bind group, with the
            // stage's uniform block selected by the binding's offset.
            let pipeline = match sp {
                SortPass::Tile { .. } => &tile,
                SortPass::Global { .. } => &global,
            };
            let offset = (i * stride) as u32;
            let bind = self.bind_group(
                pipeline,
                &[(&kbuf, None), (&vbuf, None), (&stages, Some((offset, 16)))],
            );
            pass.set_pipeline(pipeline);
            pass.set_bind_group(0, Some(&bind));
            let (x, y) = sp.workgroups(n);
            pass.dispatch_workgroups_with_workgroup_count_y(x, y);
        }
        pass.end();
        for (src, dst) in [(&kbuf, &kread), (&vbuf, &vread)] {
            enc.copy_buffer_to_buffer_with_u32_and_u32_and_u32(src, 0, dst, 0, bytes)
                .map_err(|e| GpuError::Validation(js_message(&e)))?;
        }
        let start = js_sys::Date::now();
        d.queue().submit(&[enc.finish()]);
        self.pop_scopes().await?;
        let mut k = read_words(&kread).await?;
        let mut v = read_words(&vread).await?;
        k.truncate(n as usize);
        v.truncate(n as usize);
        Ok((k, v, wall(js_sys::Date::now() - start)))
    }

    fn pipeline(&self, wgsl: &str, entry: &str) -> GpuComputePipeline {
        let module = self
            .device
            .create_shader_module(&GpuShaderModuleDescriptor::new(wgsl));
        let stage = GpuProgrammableStage::new(&module);
        stage.set_entry_point(entry);
        self.device.create_compute_pipeline(
            &GpuComputePipelineDescriptor::new_with_gpu_auto_layout_mode(
                GpuAutoLayoutMode::Auto,
                &stage,
            ),
        )
    }

    fn bind_group(
        &self,
        pipeline: &GpuComputePipeline,
        buffers: &[(&GpuBuffer, Option<(u32, u32)>)],
    ) -> web_sys::GpuBindGroup {
        let entries: Vec<GpuBindGroupEntry> = buffers
            .iter()
            .enumerate()
            .map(|(i, (buf, range))| {
                let binding = GpuBufferBinding::new(buf);
                if let Some((offset, size)) = range {
                    binding.set_offset(*offset);
                    binding.set_size(*size);
                }
                GpuBindGroupEntry::new_with_gpu_buffer_binding(i as u32, &binding)
            })
            .collect();
        self.device.create_bind_group(&GpuBindGroupDescriptor::new(
            &entries,
            &pipeline.get_bind_group_layout(0),
        ))
    }

    fn buffer(&self, bytes: u32, usage: u32) -> Result<GpuBuffer, GpuError> {
        self.device
            .create_buffer(&GpuBufferDescriptor::new(bytes.max(16), usage))
            .map_err(|e| GpuError::OutOfMemory(js_message(&e)))
    }

    fn buffer_with(&self, words: &[u32], usage: u32) -> Result<GpuBuffer, GpuError> {
        let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        let buf = self.buffer(bytes.len() as u32, usage)?;
        self.device
            .queue()
            .write_buffer_with_u32_and_u8_slice(&buf, 0, &bytes)
            .map_err(|e| GpuError::Validation(js_message(&e)))?;
        Ok(buf)
    }

    async fn pop_scopes(&self) -> Result<(), GpuError> {
        let validation = self.device.pop_error_scope().await;
        let oom = self.device.pop_error_scope().await;
        if let Some(e) = validation
            .map_err(|e| GpuError::DeviceLost(js_message(&e)))?
            .into_option()
        {
            return Err(GpuError::Validation(first_line(&e.message())));
        }
        if let Some(e) = oom
            .map_err(|e| GpuError::DeviceLost(js_message(&e)))?
            .into_option()
        {
            return Err(GpuError::OutOfMemory(first_line(&e.message())));
        }
        Ok(())
    }
}

/// Maps a `MAP_READ` buffer and returns its words.
async fn read_words(buf: &GpuBuffer) -> Result<Vec<u32>, GpuError> {
    buf.map_async(gpu_map_mode::READ).await.map_err(|e| {
        GpuError::Map(format!(
            "{} (the device may have been lost)",
            js_message(&e)
        ))
    })?;
    let range = buf
        .get_mapped_range()
        .map_err(|e| GpuError::Map(js_message(&e)))?;
    let bytes = Uint8Array::new(&range).to_vec();
    buf.unmap();
    Ok(bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect())
}
