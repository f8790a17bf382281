// The accelerator is chosen at run time, but the chosen device is used for both the input and the weight, so
// whichever arm runs, the operands of `q_matmul` share a backend.
//@ clean
use burn::backend::{
    ops::{FloatTensorOps, QTensorOps},
    Dispatch, DispatchAutodiffContext as Ctx, DispatchDevice, DispatchTensor,
};
use burn::tensor::{quantization::QuantScheme, TensorData};

pub enum Accel {
    Cuda,
    Wgpu,
    Cpu,
}

fn device_for(accel: Accel) -> DispatchDevice {
    match accel {
        Accel::Cuda => DispatchDevice::Cuda(Default::default()),
        Accel::Wgpu => DispatchDevice::Wgpu(Default::default()),
        Accel::Cpu => DispatchDevice::Flex(Default::default()),
    }
}

pub fn project(accel: Accel, data: TensorData, weights: TensorData) -> DispatchTensor {
    let device = device_for(accel);
    let q = Dispatch::quantize_dynamic(Dispatch::float_from_data(weights, &device), &QuantScheme::default());
    let x = Dispatch::float_from_data(data, &device);
    dispatch::q_matmul(x, q, Ctx::Disabled)
}
