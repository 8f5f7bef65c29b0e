// Package pipeline describes pipeline-parallel training schedules as data:
// for each of p devices, the ordered list of ops it runs — F (forward),
// B (backward) and, in split-backward schedules, W (backward for the
// weights) — each for one microbatch on one of the device's v model chunks.
// The simulator executes a Schedule, the scene draws it, the articles
// explain it, and tests read it as a grid, all from the same data.
//
// One file per schedule: GPipe, OneFOneB (PipeDream-Flush), Interleaved
// (Megatron-LM's interleaved 1F1B), ZBH1 and ZBH2 (Qi et al. 2024's
// handcrafted zero-bubble schedules), ZBV (a V-shaped zero-bubble
// schedule), DualPipeV (DeepSeek's V-shaped DualPipe), PipeDreamAsync
// (no flush, weight stashing), LocalLoss (every stage trains against a
// local loss, so its backward waits for no gradient), and GPipe2BP and
// OneFOneB2BP (Rae et al. 2024's 2BP: the backward split, every W
// deferred to the end of the iteration). New builds any of them by name.
//
// # Dependencies
//
// The model has p·v stages in forward order; Schedule.Layout says on which
// device and chunk each runs. The dependencies are implied, not stored:
//
//   - F of microbatch i on model stage k needs F(i, k−1);
//   - B(i, k) needs F(i, k) and B(i, k+1); the last stage's B needs only its
//     own F (the loss is computed there), and so does every stage's B when
//     Schedule.LocalLoss is set (each stage has its own loss);
//   - W(i, k) needs B(i, k);
//   - ops on one device run one at a time, in Schedule.Order.
//
// Validate checks that every op appears exactly once and that Order
// respects these dependencies, so that no execution deadlocks.
//
// # The ideal executor
//
// Execute runs a schedule with no communication cost: an op starts when its
// device is free and its dependencies have finished, and takes Times.F,
// Times.B or Times.W (B+W for a backward that is not split). It reports
// each op's span, the makespan, each device's idle time between its first
// and last op (the bubble as the papers count it), and the peak number of
// activations each device holds — a forward adds one for its (microbatch,
// chunk), the matching B releases it; a pending W is counted apart
// (PeakHeldW), since it keeps only the smaller weight-gradient inputs. Peaks are reported in
// chunks and in stage-equivalents (chunks / v), so that interleaved
// schedules compare with Narayanan et al. 2021's p(1 + (p−1)/(p·v)).
//
// The closed forms of the papers (Huang et al. 2019; Narayanan et al.
// 2021; Qi et al. 2024; BubbleFormula) hold exactly on this
// executor (tests check them in integer nanoseconds for p ≤ 16, m ≤ 64):
// makespan (m+p−1)(T_F+T_B+T_W) and bubble (p−1)(T_F+T_B+T_W) for GPipe
// and 1F1B; a v-th of it for interleaved; (p−1)(T_F+T_B−T_W) for ZB-H1
// (m ≥ p, T_W ≤ T_F); (p−1)(T_F+T_B−2T_W) for ZB-H2 (m ≥ 2p, 2T_W ≤
// T_F+T_B, T_W ≤ T_F); (p−1)(T_F+T_B) and makespan (m+p−1)(T_F+T_B) + m·T_W
// for the 2BP schedules. DualPipeV and ZBV stay within DeepSeek's bound
// (p−1)(T_F&B + T_B − 3T_W) with B the full backward. LocalLoss has no
// bubble and makespan m(T_F+T_B+T_W) + (p−1)T_F.
//
// Sources: Huang et al. 2019 (GPipe); Harlap et al. 2018 and Narayanan et
// al. 2019 (PipeDream); Narayanan et al. 2021 (PipeDream-Flush, ICML, and
// Megatron-LM interleaving, SC'21); Qi et al. 2024 ("Zero Bubble Pipeline
// Parallelism", ICLR); DeepSeek-AI 2024 (DeepSeek-V3 Technical Report) and
// the deepseek-ai/DualPipe repository; Laskin et al. 2020 ("Parallel
// Training of Deep Networks with Local Updates", arXiv 2012.03837).
package pipeline
