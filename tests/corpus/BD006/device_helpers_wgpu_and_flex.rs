// Two device helpers that look interchangeable: `accelerator()` is WebGPU (`DispatchDevice::Wgpu`) and
// `host()` is the CPU (`DispatchDevice::Flex`). The embedding table is quantized on the accelerator while the
// token features are built on the host, so `q_matmul` receives operands from two backends and panics.
use burn::backend::{
    ops::{FloatTensorOps, QTensorOps},
    Dispatch, DispatchAutodiffContext as Ctx, DispatchDevice, DispatchTensor,
};
use burn::tensor::{quantization::QuantScheme, TensorData};

fn accelerator() -> DispatchDevice {
    DispatchDevice::Wgpu(Default::default())
}

fn host() -> DispatchDevice {
    DispatchDevice::Flex(Default::default())
}

fn quantized_table(table: TensorData) -> DispatchTensor {
    let t = Dispatch::float_from_data(table, &accelerator());
    Dispatch::quantize_dynamic(t, &QuantScheme::default())
}

pub fn embed(features: TensorData, table: TensorData) -> DispatchTensor {
    let q_table = quantized_table(table);
    let x = Dispatch::float_from_data(features, &host());
    let ctx = x.autodiff;
    dispatch::q_matmul(x, q_table, ctx) //~ BD006
}
