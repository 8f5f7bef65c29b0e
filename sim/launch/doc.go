// Package launch turns a training plan (a scenario of the training
// strategy) into the launch configuration of a framework, and reads one
// back into a scenario:
//
//   - Megatron-LM: a torchrun line to pretrain_gpt.py with its flags
//     (Megatron and FromMegatron);
//   - torchtitan: a TOML job file's [parallelism], [training] and
//     [activation_checkpoint] sections (Torchtitan and FromTorchtitan);
//   - DeepSpeed: a ds_config JSON (DeepSpeed; emitted only).
//
// The mapping, field by field, is in each file's table. A plan that a
// framework cannot express (Megatron-LM has no zero-bubble schedule,
// torchtitan no ZeRO-1) is an error naming the field and what the
// framework allows, never a silent approximation. An imported line names
// every flag the importer does not understand; flags that change nothing
// ParaPlay simulates (data paths, learning rates, logging) are read and
// left out (ignoredMegatron).
//
// The model is given by its shapes (layers, hidden size, heads, key/value
// heads, MLP width, experts) and read back as the model preset with those
// shapes (a different layer count is kept as a model.layers override).
// The cluster's GPU type is not in a launch line: the importer takes it
// from the base scenario it is given (paraplay run's --gpu).
//
// Command line only: the browser build does not import this package.
package launch
