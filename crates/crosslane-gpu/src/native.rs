//! Native dispatch through wgpu 30 on Vulkan (Mesa's lavapipe gives a real Vulkan device on the
//! CPU, so this runs in CI without a GPU).
//!
//! Adapter selection: every Vulkan adapter is listed; `CROSSLANE_GPU_ADAPTER` (a substring of the
//! adapter name) picks one, otherwise the first with subgroups, preferring a real GPU over a CPU
//! device. The device gets `SUBGROUP` and `TIMESTAMP_QUERY` when the adapter has them and the
//! adapter's own limits. Errors never panic: wgpu's default uncaptured-error handler panics, so one
//! that records the message is installed, and every submission runs inside validation and
//! out-of-memory error scopes.

use std::collections::HashMap;
use std::num::NonZeroU64;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use crosslane_core::Step;

use crate::compare::{compare, Comparison, DeviceFacts, GpuRun, Timing, TimingSource};
use crate::error::{first_line, GpuError};
use crate::network::{sort_passes, sort_wgsl, SortPass, STAGE_STRIDE};
use crate::wgsl::{
    decode_results, lower_step, CrossLaneKernel, LoweringChoice, ShaderTarget, SubgroupCaps,
    RESULT_WORDS_PER_LANE,
};

// A user's WGSL shader with its own buffers (`crosslane run FILE.wgsl --gpu`).
#[path = "native_shader.rs"]
mod native_shader;

/// An open native device.
pub struct NativeGpu {
    device: wgpu::Device,
    queue: wgpu::Queue,
    facts: DeviceFacts,
    caps: SubgroupCaps,
    limits: wgpu::Limits,
    uncaptured: Arc<Mutex<Vec<String>>>,
    lost: Arc<Mutex<Option<String>>>,
    pipelines: Mutex<HashMap<String, wgpu::ComputePipeline>>,
}

impl std::fmt::Debug for NativeGpu {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NativeGpu")
            .field("facts", &self.facts)
            .finish()
    }
}

/// The result of a GPU sort.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SortRun {
    /// Keys, ascending.
    pub keys: Vec<u32>,
    /// Values, moved with their keys.
    pub vals: Vec<u32>,
    /// Time of the sort's dispatches (GPU timestamps when available, else wall time around
    /// submit and wait, which includes the upload).
    pub timing: Timing,
    /// Dispatches used.
    pub passes: usize,
}

fn lock_take<T: Default>(m: &Mutex<T>) -> T {
    match m.lock() {
        Ok(mut g) => std::mem::take(&mut *g),
        Err(poisoned) => std::mem::take(&mut *poisoned.into_inner()),
    }
}

impl NativeGpu {
    /// Opens the best Vulkan adapter (see the module docs).
    ///
    /// # Errors
    /// [`GpuError::NoAdapter`] when no Vulkan adapter exists (install `mesa-vulkan-drivers` for
    /// lavapipe) or none matches `CROSSLANE_GPU_ADAPTER`; [`GpuError::RequestDevice`] when the
    /// device cannot be created.
    pub fn new() -> Result<Self, GpuError> {
        pollster::block_on(Self::open())
    }

    async fn open() -> Result<Self, GpuError> {
        let instance = wgpu::Instance::new(wgpu::InstanceDescriptor {
            backends: wgpu::Backends::VULKAN,
            ..wgpu::InstanceDescriptor::new_without_display_handle()
        });
        let adapters = instance.enumerate_adapters(wgpu::Backends::VULKAN).await;
        if adapters.is_empty() {
            return Err(GpuError::NoAdapter(
                "no Vulkan adapter (natively crosslane needs a Vulkan driver; on a machine without a GPU install mesa-vulkan-drivers for lavapipe)".into(),
            ));
        }
        let wanted = std::env::var("CROSSLANE_GPU_ADAPTER").ok();
        let score = |a: &wgpu::Adapter| {
            let info = a.get_info();
            let sub = a.features().contains(wgpu::Features::SUBGROUP);
            let real = info.device_type != wgpu::DeviceType::Cpu;
            u8::from(sub) * 2 + u8::from(real)
        };
        let names: Vec<String> = adapters.iter().map(|a| a.get_info().name).collect();
        let adapter = match &wanted {
            Some(w) => adapters
                .into_iter()
                .find(|a| a.get_info().name.to_lowercase().contains(&w.to_lowercase()))
                .ok_or_else(|| {
                    GpuError::NoAdapter(format!(
                        "CROSSLANE_GPU_ADAPTER=`{w}` matches none of: {}",
                        names.join(", ")
                    ))
                })?,
            None => adapters
                .into_iter()
                .max_by_key(score)
                .ok_or_else(|| GpuError::NoAdapter("no Vulkan adapter".into()))?,
        };
        let info = adapter.get_info();
        // SHADER_F16 for user shaders with `enable f16;` (crosslane run FILE.wgsl --gpu).
        let wanted_features =
            wgpu::Features::SUBGROUP | wgpu::Features::TIMESTAMP_QUERY | wgpu::Features::SHADER_F16;
        let features = adapter.features() & wanted_features;
        let limits = adapter.limits();
        let (device, queue) = adapter
            .request_device(&wgpu::DeviceDescriptor {
                label: Some("crosslane"),
                required_features: features,
                required_limits: limits.clone(),
                experimental_features: wgpu::ExperimentalFeatures::disabled(),
                memory_hints: wgpu::MemoryHints::Performance,
                trace: wgpu::Trace::Off,
            })
            .await
            .map_err(|e| GpuError::RequestDevice(first_line(&e.to_string())))?;
        let uncaptured = Arc::new(Mutex::new(Vec::new()));
        let sink = Arc::clone(&uncaptured);
        device.on_uncaptured_error(Arc::new(move |e: wgpu::Error| {
            if let Ok(mut v) = sink.lock() {
                v.push(first_line(&e.to_string()));
            }
        }));
        let lost = Arc::new(Mutex::new(None));
        let lost_sink = Arc::clone(&lost);
        device.set_device_lost_callback(move |reason, message| {
            if let Ok(mut l) = lost_sink.lock() {
                *l = Some(format!("{reason:?}: {}", first_line(&message)));
            }
        });
        let subgroups = features.contains(wgpu::Features::SUBGROUP);
        let caps = SubgroupCaps {
            supported: subgroups,
            min_size: if subgroups { info.subgroup_min_size } else { 0 },
            max_size: if subgroups { info.subgroup_max_size } else { 0 },
        };
        let facts = DeviceFacts {
            adapter: info.name.clone(),
            backend: info.backend.to_string(),
            is_fallback: info.device_type == wgpu::DeviceType::Cpu,
            subgroups,
            subgroup_min_size: caps.min_size,
            subgroup_max_size: caps.max_size,
            timestamps: features.contains(wgpu::Features::TIMESTAMP_QUERY),
        };
        Ok(NativeGpu {
            device,
            queue,
            facts,
            caps,
            limits,
            uncaptured,
            lost,
            pipelines: Mutex::new(HashMap::new()),
        })
    }

    /// The device's facts (adapter, fallback, subgroup sizes, timestamps).
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
    /// Any [`GpuError`]: no lowering for the op, validation, out of memory, device lost, mapping.
    pub fn run_step(&self, step: &Step, choice: LoweringChoice) -> Result<GpuRun, GpuError> {
        let kernel = lower_step(
            step,
            &self.caps,
            choice,
            ShaderTarget::Naga,
            &self.facts.adapter,
        )?;
        self.run_kernel(kernel)
    }

    /// Runs a generated kernel (usually from [`lower_step`]; a test may alter its text to check
    /// that the comparison catches a wrong formula) and returns its lanes.
    ///
    /// # Errors
    /// Validation, out of memory, device lost, mapping.
    pub fn run_kernel(&self, kernel: CrossLaneKernel) -> Result<GpuRun, GpuError> {
        let pipeline = self.step_pipeline(&kernel.wgsl)?;
        let d = &self.device;
        let scopes = self.push_scopes();
        let storage = |label: &str, words: &[u32], usage: wgpu::BufferUsages| {
            let buf = d.create_buffer(&wgpu::BufferDescriptor {
                label: Some(label),
                size: (words.len().max(4) * 4) as u64,
                usage,
                mapped_at_creation: false,
            });
            self.queue.write_buffer(&buf, 0, &words_to_bytes(words));
            buf
        };
        let values = storage(
            "values",
            &kernel.values,
            wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST,
        );
        let operands = storage(
            "operands",
            &kernel.operands,
            wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST,
        );
        let out_bytes = (kernel.lanes as usize * RESULT_WORDS_PER_LANE * 4) as u64;
        let results = d.create_buffer(&wgpu::BufferDescriptor {
            label: Some("results"),
            size: out_bytes,
            usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
            mapped_at_creation: false,
        });
        let readback = self.readback_buffer(out_bytes);
        let bind = d.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("crosslane step"),
            layout: &pipeline.get_bind_group_layout(0),
            entries: &[
                wgpu::BindGroupEntry {
                    binding: 0,
                    resource: values.as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 1,
                    resource: operands.as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 2,
                    resource: results.as_entire_binding(),
                },
            ],
        });
        let timer = self.timer();
        let mut enc = d.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: None });
        {
            let mut pass = enc.begin_compute_pass(&wgpu::ComputePassDescriptor {
                label: Some("crosslane step"),
                timestamp_writes: timer.as_ref().map(Timer::writes),
            });
            pass.set_pipeline(&pipeline);
            pass.set_bind_group(0, &bind, &[]);
            pass.dispatch_workgroups(1, 1, 1);
        }
        enc.copy_buffer_to_buffer(&results, 0, &readback, 0, out_bytes);
        if let Some(t) = &timer {
            t.resolve(&mut enc);
        }
        self.pop_scopes(scopes)?;
        let (mut words, wall) = self.submit_and_read(enc, &[&readback], timer.as_ref())?;
        let words = words.pop().unwrap_or_default();
        let (lanes, observed) = decode_results(&kernel, &words)?;
        Ok(GpuRun {
            lanes,
            observed_subgroup_size: observed,
            lowering: kernel.lowering,
            timing: wall,
            hardware_part: kernel.hardware_part(),
            formula_part: kernel.formula_part(),
            wgsl: kernel.wgsl,
        })
    }

    /// Compiles WGSL text with entry point `main` into a compute pipeline, once per distinct text:
    /// formula kernels depend only on the op, the lowering, the lane count and the value width (the
    /// operands are in a buffer), so a grid of parameters reuses a handful of pipelines.
    fn step_pipeline(&self, wgsl: &str) -> Result<wgpu::ComputePipeline, GpuError> {
        if let Ok(cache) = self.pipelines.lock() {
            if let Some(p) = cache.get(wgsl) {
                return Ok(p.clone());
            }
        }
        let scopes = self.push_scopes();
        let module = self
            .device
            .create_shader_module(wgpu::ShaderModuleDescriptor {
                label: Some("crosslane step"),
                source: wgpu::ShaderSource::Wgsl(wgsl.into()),
            });
        let pipeline = self
            .device
            .create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
                label: Some("crosslane step"),
                layout: None,
                module: &module,
                entry_point: Some("main"),
                compilation_options: wgpu::PipelineCompilationOptions::default(),
                cache: None,
            });
        self.pop_scopes(scopes)?;
        if let Ok(mut cache) = self.pipelines.lock() {
            cache.insert(wgsl.to_string(), pipeline.clone());
        }
        Ok(pipeline)
    }

    /// Compiles `wgsl` (entry point `main`) on this device without running it.
    ///
    /// # Errors
    /// [`GpuError::Validation`] with the first line of naga's message.
    pub fn validate_wgsl(&self, wgsl: &str) -> Result<(), GpuError> {
        self.step_pipeline(wgsl).map(|_| ())
    }

    /// Runs `step` and compares it with the emulator lane by lane.
    ///
    /// # Errors
    /// As [`NativeGpu::run_step`].
    pub fn compare_step(
        &self,
        step: &Step,
        choice: LoweringChoice,
    ) -> Result<(Comparison, GpuRun), GpuError> {
        let run = self.run_step(step, choice)?;
        Ok((compare(step, &self.facts, &run), run))
    }

    /// Most u32 keys one sort can hold on this device: its storage-binding and buffer-size
    /// limits (bytes / 4), and [`crate::network::MAX_SORT_LEN`]. Checked before any key is
    /// generated, so a `--len` the device cannot bind allocates nothing on the host either.
    pub fn max_sort_len(&self) -> u64 {
        let bytes = self
            .limits
            .max_storage_buffer_binding_size
            .min(self.limits.max_buffer_size);
        (bytes / 4).min(u64::from(crate::network::MAX_SORT_LEN))
    }

    /// Compiles the sort kernels once; the sorter can then sort many arrays.
    ///
    /// # Errors
    /// [`GpuError::Validation`] when the kernels do not compile on this device.
    pub fn sorter(&self) -> Result<GpuSorter<'_>, GpuError> {
        let d = &self.device;
        let scopes = self.push_scopes();
        let module = d.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("odd-even merge sort"),
            source: wgpu::ShaderSource::Wgsl(sort_wgsl().into()),
        });
        let rw = |binding| wgpu::BindGroupLayoutEntry {
            binding,
            visibility: wgpu::ShaderStages::COMPUTE,
            ty: wgpu::BindingType::Buffer {
                ty: wgpu::BufferBindingType::Storage { read_only: false },
                has_dynamic_offset: false,
                min_binding_size: None,
            },
            count: None,
        };
        let layout = d.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("sort"),
            entries: &[
                rw(0),
                rw(1),
                wgpu::BindGroupLayoutEntry {
                    binding: 2,
                    visibility: wgpu::ShaderStages::COMPUTE,
                    ty: wgpu::BindingType::Buffer {
                        ty: wgpu::BufferBindingType::Uniform,
                        has_dynamic_offset: true,
                        min_binding_size: NonZeroU64::new(16),
                    },
                    count: None,
                },
            ],
        });
        let pl = d.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("sort"),
            bind_group_layouts: &[Some(&layout)],
            immediate_size: 0,
        });
        let make = |entry: &str| {
            d.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
                label: Some(entry),
                layout: Some(&pl),
                module: &module,
                entry_point: Some(entry),
                compilation_options: wgpu::PipelineCompilationOptions::default(),
                cache: None,
            })
        };
        let tile = make("tile_sort");
        let global = make("stage_global");
        self.pop_scopes(scopes)?;
        Ok(GpuSorter {
            gpu: self,
            layout,
            tile,
            global,
        })
    }

    fn readback_buffer(&self, bytes: u64) -> wgpu::Buffer {
        self.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("readback"),
            size: bytes.max(16),
            usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        })
    }

    fn push_scopes(&self) -> [wgpu::ErrorScopeGuard; 2] {
        [
            self.device.push_error_scope(wgpu::ErrorFilter::OutOfMemory),
            self.device.push_error_scope(wgpu::ErrorFilter::Validation),
        ]
    }

    fn pop_scopes(&self, scopes: [wgpu::ErrorScopeGuard; 2]) -> Result<(), GpuError> {
        let [oom, validation] = scopes;
        let v = pollster::block_on(validation.pop());
        let o = pollster::block_on(oom.pop());
        if let Some(e) = v {
            return Err(GpuError::Validation(first_line(&e.to_string())));
        }
        if let Some(e) = o {
            return Err(GpuError::OutOfMemory(first_line(&e.to_string())));
        }
        self.check_health()
    }

    fn check_health(&self) -> Result<(), GpuError> {
        if let Some(l) = lock_take(&self.lost) {
            return Err(GpuError::DeviceLost(l));
        }
        if let Some(e) = lock_take(&self.uncaptured).into_iter().next() {
            return Err(GpuError::Validation(e));
        }
        Ok(())
    }

    fn timer(&self) -> Option<Timer> {
        if !self.facts.timestamps {
            return None;
        }
        let set = self.device.create_query_set(&wgpu::QuerySetDescriptor {
            label: Some("timestamps"),
            ty: wgpu::QueryType::Timestamp,
            count: 2,
        });
        let resolve = self.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("timestamps"),
            size: 16,
            usage: wgpu::BufferUsages::QUERY_RESOLVE | wgpu::BufferUsages::COPY_SRC,
            mapped_at_creation: false,
        });
        let read = self.readback_buffer(16);
        Some(Timer {
            set,
            resolve,
            read,
            period_ns: f64::from(self.queue.get_timestamp_period()),
        })
    }

    /// Submits, waits, maps every readback buffer and returns their words, with the timing (GPU
    /// timestamps from `timer` when present, else the wall time of submit + wait).
    fn submit_and_read(
        &self,
        enc: wgpu::CommandEncoder,
        readbacks: &[&wgpu::Buffer],
        timer: Option<&Timer>,
    ) -> Result<(Vec<Vec<u32>>, Timing), GpuError> {
        let start = Instant::now();
        let index = self.queue.submit([enc.finish()]);
        self.device
            .poll(wgpu::PollType::Wait {
                submission_index: Some(index),
                timeout: None,
            })
            .map_err(|e| GpuError::DeviceLost(first_line(&e.to_string())))?;
        let wall = start.elapsed().as_nanos() as u64;
        self.check_health()?;
        let mut all: Vec<&wgpu::Buffer> = readbacks.to_vec();
        if let Some(t) = timer {
            all.push(&t.read);
        }
        let mut words = self.map_read(&all)?;
        let timing = match (timer, words.len() > readbacks.len()) {
            (Some(t), true) => {
                let ts = words.pop().unwrap_or_default();
                let tick = |i: usize| {
                    u64::from(ts.get(2 * i).copied().unwrap_or(0))
                        | (u64::from(ts.get(2 * i + 1).copied().unwrap_or(0)) << 32)
                };
                let ticks = tick(1).saturating_sub(tick(0));
                Timing {
                    nanos: (ticks as f64 * t.period_ns) as u64,
                    source: TimingSource::GpuTimestamps,
                }
            }
            _ => Timing {
                nanos: wall,
                source: TimingSource::WallClock,
            },
        };
        Ok((words, timing))
    }

    fn map_read(&self, buffers: &[&wgpu::Buffer]) -> Result<Vec<Vec<u32>>, GpuError> {
        let (tx, rx) = std::sync::mpsc::channel();
        for (i, b) in buffers.iter().enumerate() {
            let tx = tx.clone();
            b.map_async(wgpu::MapMode::Read, .., move |r| {
                let _ = tx.send((i, r));
            });
        }
        drop(tx);
        self.device
            .poll(wgpu::PollType::wait_indefinitely())
            .map_err(|e| GpuError::DeviceLost(first_line(&e.to_string())))?;
        for (_, r) in rx.iter() {
            r.map_err(|e| GpuError::Map(first_line(&e.to_string())))?;
        }
        let mut out = Vec::with_capacity(buffers.len());
        for b in buffers {
            let view = b
                .get_mapped_range(..)
                .map_err(|e| GpuError::Map(first_line(&e.to_string())))?;
            out.push(bytes_to_words(&view));
            drop(view);
            b.unmap();
        }
        self.check_health()?;
        Ok(out)
    }
}

struct Timer {
    set: wgpu::QuerySet,
    resolve: wgpu::Buffer,
    read: wgpu::Buffer,
    period_ns: f64,
}

impl Timer {
    fn writes(&self) -> wgpu::ComputePassTimestampWrites<'_> {
        wgpu::ComputePassTimestampWrites {
            query_set: &self.set,
            beginning_of_pass_write_index: Some(0),
            end_of_pass_write_index: Some(1),
        }
    }

    fn resolve(&self, enc: &mut wgpu::CommandEncoder) {
        enc.resolve_query_set(&self.set, 0..2, &self.resolve, 0);
        enc.copy_buffer_to_buffer(&self.resolve, 0, &self.read, 0, 16);
    }
}

/// The odd-even merge sort's pipelines on one device.
pub struct GpuSorter<'a> {
    gpu: &'a NativeGpu,
    layout: wgpu::BindGroupLayout,
    tile: wgpu::ComputePipeline,
    global: wgpu::ComputePipeline,
}

impl GpuSorter<'_> {
    /// Sorts `keys` ascending on the GPU, moving `vals` with them (one compute pass, one dispatch
    /// per [`SortPass`]).
    ///
    /// # Errors
    /// [`GpuError::Unsupported`] on `len` when the lengths differ or exceed [`crate::network::MAX_SORT_LEN`]
    /// or the device's storage-binding limit; otherwise as the device reports.
    pub fn sort(&self, keys: &[u32], vals: &[u32]) -> Result<SortRun, GpuError> {
        if keys.len() != vals.len() {
            return Err(GpuError::unsupported(
                "len",
                format!(
                    "keys ({}) and values ({}) differ in length",
                    keys.len(),
                    vals.len()
                ),
            ));
        }
        let n = u32::try_from(keys.len())
            .map_err(|_| GpuError::unsupported("len", "more keys than a u32 counts"))?;
        let passes = sort_passes(n)?;
        if passes.is_empty() {
            return Ok(SortRun {
                keys: keys.to_vec(),
                vals: vals.to_vec(),
                timing: Timing {
                    nanos: 0,
                    source: TimingSource::WallClock,
                },
                passes: 0,
            });
        }
        let bytes = u64::from(n) * 4;
        let limit = self
            .gpu
            .limits
            .max_storage_buffer_binding_size
            .min(self.gpu.limits.max_buffer_size);
        if bytes > limit {
            return Err(GpuError::unsupported(
                "len",
                format!(
                    "{n} keys need {bytes} bytes per buffer; this device binds at most {limit}"
                ),
            ));
        }
        let d = &self.gpu.device;
        let q = &self.gpu.queue;
        let scopes = self.gpu.push_scopes();
        let data = |label: &str, words: &[u32]| {
            let buf = d.create_buffer(&wgpu::BufferDescriptor {
                label: Some(label),
                size: bytes,
                usage: wgpu::BufferUsages::STORAGE
                    | wgpu::BufferUsages::COPY_DST
                    | wgpu::BufferUsages::COPY_SRC,
                mapped_at_creation: false,
            });
            q.write_buffer(&buf, 0, &words_to_bytes(words));
            buf
        };
        let kbuf = data("keys", keys);
        let vbuf = data("vals", vals);
        let stride = STAGE_STRIDE as usize;
        let mut stage_bytes = vec![0u8; passes.len() * stride];
        for (i, pass) in passes.iter().enumerate() {
            let words = pass.params(n);
            stage_bytes[i * stride..i * stride + 16].copy_from_slice(&words_to_bytes(&words));
        }
        let stages = d.create_buffer(&wgpu::BufferDescriptor {
            label: Some("stages"),
            size: stage_bytes.len() as u64,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        q.write_buffer(&stages, 0, &stage_bytes);
        let bind = d.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("sort"),
            layout: &self.layout,
            entries: &[
                wgpu::BindGroupEntry {
                    binding: 0,
                    resource: kbuf.as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 1,
                    resource: vbuf.as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 2,
                    resource: wgpu::BindingResource::Buffer(wgpu::BufferBinding {
                        buffer: &stages,
                        offset: 0,
                        size: NonZeroU64::new(16),
                    }),
                },
            ],
        });
        let kread = self.gpu.readback_buffer(bytes);
        let vread = self.gpu.readback_buffer(bytes);
        let timer = self.gpu.timer();
        let mut enc = d.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: None });
        {
            let mut pass = enc.begin_compute_pass(&wgpu::ComputePassDescriptor {
                label: Some("odd-even merge sort"),
                timestamp_writes: timer.as_ref().map(Timer::writes),
            });
            for (i, sp) in passes.iter().enumerate() {
                pass.set_pipeline(match sp {
                    SortPass::Tile { .. } => &self.tile,
                    SortPass::Global { .. } => &self.global,
                });
                pass.set_bind_group(0, &bind, &[(i as u64 * STAGE_STRIDE) as u32]);
                let (x, y) = sp.workgroups(n);
                pass.dispatch_workgroups(x, y, 1);
            }
        }
        enc.copy_buffer_to_buffer(&kbuf, 0, &kread, 0, bytes);
        enc.copy_buffer_to_buffer(&vbuf, 0, &vread, 0, bytes);
        if let Some(t) = &timer {
            t.resolve(&mut enc);
        }
        self.gpu.pop_scopes(scopes)?;
        let (mut words, timing) =
            self.gpu
                .submit_and_read(enc, &[&kread, &vread], timer.as_ref())?;
        // Readback buffers have a 16-byte minimum: drop the padding.
        let mut vals = words.pop().unwrap_or_default();
        let mut keys = words.pop().unwrap_or_default();
        vals.truncate(n as usize);
        keys.truncate(n as usize);
        Ok(SortRun {
            keys,
            vals,
            timing,
            passes: passes.len(),
        })
    }
}

fn words_to_bytes(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

fn bytes_to_words(bytes: &[u8]) -> Vec<u32> {
    bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}
