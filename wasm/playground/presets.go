package playground

// Preset is a lesson the playground offers as a button: a label and the
// scenario's query (view parameters included).
type Preset struct {
	Label string `json:"label"`
	// Lesson says in a sentence what to look at.
	Lesson string `json:"lesson"`
	Query  string `json:"query"`
}

// Presets are the classic lessons the scenarios of today can tell.
var Presets = []Preset{
	{"Ring, 16 GPUs, 64 KiB", "Small buffers: the ring pays 2(n−1) latencies.",
		"strategy=collective&gpus=16&algo=ring&size=64KiB"},
	{"Tree, 16 GPUs, 64 KiB", "The double binary tree pays only about 2 log₂ n latencies.",
		"strategy=collective&gpus=16&algo=tree&size=64KiB"},
	{"Ring, 16 GPUs, 256 MiB", "Large buffers: the ring uses every link's bandwidth.",
		"strategy=collective&gpus=16&algo=ring&size=256MiB"},
	{"Tree, 16 GPUs, 256 MiB", "Large buffers: the tree is bandwidth-bound too, but not faster.",
		"strategy=collective&gpus=16&algo=tree&size=256MiB"},
	{"The ring article", "Four GPUs compute, then all-reduce 256 MiB of gradients around a ring.",
		"gpus=4&size=256MiB"},
	{"Latency-bound ring, 8 GPUs", "The ring article's second demo: 64 KiB, α = 10 µs.",
		"name=Latency-bound+ring+on+8+GPUs&gpus=8&lat=10us&size=64KiB"},
	{"2×8 H100: one-NIC ring", "A single flat ring crosses the slow inter-node link on every step.",
		"strategy=collective&gpu=h100-sxm&nodes=2&gpus_per_node=8&algo=ring&channels=1&size=256MiB"},
	{"2×8 H100: eight channels", "NCCL's way: eight rings at once, one per network card.",
		"strategy=collective&gpu=h100-sxm&nodes=2&gpus_per_node=8&algo=ring&size=256MiB"},
	{"2×8 H100: hierarchical", "Reduce inside each node over NVLink, then across nodes.",
		"strategy=collective&gpu=h100-sxm&nodes=2&gpus_per_node=8&algo=hierarchical&size=256MiB"},
	{"TPU v5e 4×4: all-gather", "A 2D torus slice: a v5e axis wraps around only at 16 chips, so these axes of 4 are lines, not rings.",
		TPUv5eQuery},
	{"TPU v5p 4×4×4: a named mesh", "Llama 3 8B on a 3D torus, mesh fsdp 16 × model 4: the model axis takes x. Change the mesh in the form.",
		TPUMeshQuery},
	{"TPU v5e 16×2: mesh layout yx", "The model axis of 16 laid y first: a 2×8 block without wraparound, not the ring along x (layout xyz).",
		"model=megatron-7.5b&gpu=tpu-v5e&topology=16x2&mesh_fsdp=2&mesh_model=16&mesh_layout=yx&microbatches=1"},
	{"GPipe, 4 stages", "All forwards, then all backwards: a large pipeline bubble.",
		"gpus=4&network=ideal&tf=1ms&tb=1ms&tw=1ms&pp=4&microbatches=8&schedule=gpipe"},
	{"1F1B, 4 stages", "One forward, one backward: the same bubble, far less activation memory.",
		"gpus=4&network=ideal&tf=1ms&tb=1ms&tw=1ms&pp=4&microbatches=8&schedule=1f1b"},
	{"Interleaved, 4 stages, v = 2", "Two model chunks per GPU: the warm-up is half as long, so the bubble halves.",
		"gpus=4&network=ideal&tf=1ms&tb=1ms&tw=1ms&pp=4&microbatches=8&schedule=interleaved&virtual_stages=2"},
	{"Zero bubble (ZB-H1), 4 stages", "Backward split into B and W: the W ops fill the cool-down bubble.",
		"gpus=4&network=ideal&tf=1ms&tb=1ms&tw=1ms&pp=4&microbatches=8&schedule=zb-h1"},
	{"Local losses, 4 stages", "Every stage trains on its own loss: no stage waits for a gradient, so no bubble.",
		"gpus=4&network=ideal&tf=1ms&tb=1ms&tw=1ms&pp=4&microbatches=8&schedule=local-loss"},
	{"ZeRO-0, Llama 3 8B on 8 H100", "Plain data parallelism: every GPU holds all the weights, gradients and Adam states.",
		"model=llama3-8b&gpu=h100-sxm&nodes=1&gpus_per_node=8&dp=8&zero=0&micro_batch_size=1&microbatches=2&seq_len=4096&recompute=selective"},
	{"ZeRO-3, Llama 3 8B on 8 H100", "Everything sharded eight ways: watch the memory bars shrink and the gathers appear.",
		"model=llama3-8b&gpu=h100-sxm&nodes=1&gpus_per_node=8&dp=8&zero=3&micro_batch_size=1&microbatches=2&seq_len=4096&recompute=selective"},
	{"3D: TP 4 × PP 2 × DP 2", "Llama 3 8B on 2×8 H100: tensor parallelism inside a node, the pipeline across, two replicas.",
		"model=llama3-8b&gpu=h100-sxm&nodes=2&gpus_per_node=8&tp=4&pp=2&dp=2&schedule=interleaved&virtual_stages=2&microbatches=8&micro_batch_size=1&seq_len=4096&sequence_parallel=true&zero=1&recompute=selective"},
	{"Straggler", "With ±40% jitter the slowest GPU makes every other GPU wait to all-reduce.",
		"gpus=8&jitter=0.4&seed=3"},
	{"Fail-stop, elastic", "GPU 6 dies: its peers hang until the heartbeat timeout, then its replica is dropped.",
		"dp=4&pp=2&faults=kind%3Dfail_slow%2Cgpu%3D1%2Cfactor%3D0.4%3Bkind%3Dfail_stop%2Cat%3D600ms%2Cgpu%3D6&gpu=h100-sxm&gpus_per_node=4&nodes=2&heartbeat=40ms&iterations=4&micro_batch_size=2&microbatches=4&model=gpt3-1.3b&recovery=elastic&straggler_cv=0.05"},
	{"Fail-stop, restart", "GPU 6 dies: the job restarts from its last checkpoint and redoes the lost step.",
		"dp=4&pp=2&faults=kind%3Dfail_slow%2Cgpu%3D1%2Cfactor%3D0.4%3Bkind%3Dfail_stop%2Cat%3D600ms%2Cgpu%3D6&gpu=h100-sxm&gpus_per_node=4&nodes=2&heartbeat=40ms&ckpt_cost=15ms&ckpt_interval=0ns&restart_cost=120ms&iterations=4&micro_batch_size=2&microbatches=4&model=gpt3-1.3b&straggler_cv=0.05"},
	{"H100 + A100, balanced", "Stages sized to the GPUs' speed; set partition=equal to see the A100s hold the pipeline up.",
		"dp=4&pp=2&order=tp%2Ccp%2Cdp%2Cpp&gpu=h100-sxm&node_gpus=h100-sxm%2Ca100-sxm-80gb&nodes=2&gpus_per_node=4&model=llama3-8b&layers=16&seq_len=4096&partition=balanced&zero=1&recompute=selective"},
	{"Failures over a week", "Llama 3 8B on 32 H100s for seven days at 100× the Llama 3 failure rate: each failure's lost work, detection and recovery, and the goodput they leave.",
		WeekQuery},
	{"Parameter server: BSP", "A barrier every iteration: the fast workers wait for the one at a quarter speed.",
		"strategy=parameter-server&gpus=4&size=64MiB&iterations=8&sync=bsp&speeds=1,1,0.5,0.25"},
	{"Parameter server: ASP", "No barrier: every worker runs at its own pace and its version-lag badge climbs.",
		"strategy=parameter-server&gpus=4&size=64MiB&iterations=8&sync=asp&speeds=1,1,0.5,0.25"},
	{"Parameter server: SSP, s = 2", "A fast worker runs at most two iterations ahead of the slowest, then waits.",
		"strategy=parameter-server&gpus=4&size=64MiB&iterations=8&sync=ssp&staleness=2&speeds=1,1,0.5,0.25"},
	{"Parameter server: DSSP", "The bound moves between 1 and 4 with the workers' recent iteration times.",
		"strategy=parameter-server&gpus=4&size=64MiB&iterations=8&sync=dssp&staleness=1&staleness_range=3&speeds=1,1,0.5,0.25"},
	{"Local SGD, H = 4", "Four local steps, then one all-reduce of the whole model.",
		"strategy=local-sgd&gpus=4&size=1GiB&iterations=8&period=4"},
	{"Local SGD in layer groups", "DreamDDP-style: each layer group is averaged once per period, overlapped with compute.",
		"strategy=local-sgd&gpus=4&size=1GiB&iterations=8&period=4&layer_groups=8"},
	{"RLHF co-located, 8 H100", "All four models on every GPU: generation, bound by HBM bandwidth, is the longest phase.",
		"strategy=rlhf&gpus=8&iterations=4&placement=co-located&gen_tp=2"},
	{"RLHF disaggregated, H20 + H100", "A generation pool feeds a training pool; watch the rollout queue fill and the policy versions fall behind.",
		"strategy=rlhf&gpus=8&iterations=16&placement=disaggregated&gen_gpus=4&gen_gpu=h20&train_gpu=h100-sxm"},
	{"Async RL, staleness η = 1", "The generator may run one policy version ahead: the pools overlap, no batch is older than one version.",
		"strategy=rlhf&gpus=8&iterations=8&placement=disaggregated&gen_gpus=4&gen_gpu=h20&train_gpu=h100-sxm&eta=1"},
	{"Serving: pipeline, sampling on the GPU", "Llama 3 8B decoding on a 4-stage pipeline: the last stage samples, the others wait (imbalance); host work stalls every GPU (intra-stage).",
		ServingPipelineQuery},
	{"Serving: SiPipe-style", "Sampling moves to a CPU lane and host work overlaps the GPU: the imbalance and intra-stage bubbles shrink.",
		ServingSiPipeQuery},
	{"Serving: the KV cache grows", "256 requests per H100 decode 512 tokens: the red KV bar climbs one token per step; try requests=768 to run out of memory.",
		ServingKVQuery},
	{"Serving: SiDP shared weights", "Four H100s share one copy of the layers and fetch the rest over NVLink: the freed HBM holds a batch that replicated weights cannot.",
		ServingSiDPQuery},
	{SplitOneHopLabel, "Eight phones run VGG-19's first two layers and upload over 20 Mb/s; the one at quarter speed ends every round.",
		SplitOneHopQuery},
	{"Split learning: 100 clients, one hop", "VGG-19 on ImageNet for 100 clients: the one compute node needs 112 GiB, more than an 80 GB A100.",
		SplitVGGQuery},
	{"Split learning: 100 clients, 4 hops (MP-SL)", "The server side cut over a chain of four A100s: at most 43 GiB per node, at the price of activations between the hops.",
		SplitVGGQuery + "&hops=4"},
	{"Federated averaging", "Every phone trains the whole model and uploads all of it: 76 MiB a round instead of 2 MiB of activations.",
		FedAvgQuery},
}

// The serving presets, also the demos of docs/inference.md.
const (
	servingBase          = "strategy=inference&gpu=h100-sxm&model=llama3-8b"
	ServingPipelineQuery = servingBase + "&gpus=4&pp=4&requests=8&prompt=256&output=12&host_time=200us&send_overhead=100us"
	ServingSiPipeQuery   = servingBase + "&gpus=4&pp=4&requests=8&prompt=256&output=12&host_time=200us&send_overhead=10us&sampling=cpu&async_host=true"
	ServingKVQuery       = servingBase + "&gpus=2&dp=2&requests=256&prompt=256&output=512"
	ServingSiDPQuery     = servingBase + "&gpus=4&dp=4&requests=560&prompt=992&output=32&shared_weights=fetch"
)

// The TPU presets the browser test opens.
const (
	TPUv5eQuery  = "strategy=collective&gpu=tpu-v5e&topology=4x4&op=all_gather&algo=torus&size=32MiB"
	TPUMeshQuery = "model=llama3-8b&seq_len=2048&gpu=tpu-v5p&topology=4x4x4&mesh_fsdp=16&mesh_model=4&microbatches=1"
)

// The split-learning presets' queries, shared with the article's demos and
// the browser test.
const (
	SplitOneHopLabel = "Split learning: one hop, a slow phone"
	SplitOneHopQuery = "strategy=split-learning&clients=8&iterations=2&client_speeds=1,1,1,1,1,1,1,0.25"
	SplitVGGQuery    = "strategy=split-learning&split_model=vgg19&clients=100&compute_gpu=a100-sxm-80gb"
	FedAvgQuery      = "strategy=split-learning&split_mode=fedavg&clients=8&iterations=2&client_speeds=1,1,1,1,1,1,1,0.25"
)

// WeekQuery is sim/scenario/testdata/long/llama3-8b-week.yaml as a query:
// a long run small enough to simulate in the browser in milliseconds.
const WeekQuery = "name=Llama+3+8B%2C+a+week+of+failures&model=llama3-8b&gpu=h100-sxm&nodes=4&gpus_per_node=8&dp=2&tp=8&pp=2" +
	"&recovery=elastic&ckpt_interval=20m&ckpt_cost=20s&restart_cost=5m&fail_rate=0.4&repair_time=4h&fail_seed=42&fail_duration=7d"
