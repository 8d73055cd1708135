/*
 * suite_table.c - the suite's table of benchmarks (bench_suite.h): for
 * each, the bench command and its quick and full arguments, and its report
 * tables: where the rows are in its JSON and each column's key (the result
 * writer's name for it), unit and meaning. The 1990 columns are the
 * figures the benchmark itself prints beside its own (its JSON's
 * published* and ref_1990_* members); none is added here. A benchmark
 * added later is a row of ipx_suite_benches and, if it has them, its
 * tables here and its plot kinds in plot_kinds.c (B7's, B8's and
 * B9's in plot_b7.c, plot_b8.c, plot_b9.c).
 */
#include <string.h>
#include <strings.h>

#include "ipxlab/bench_suite.h"
#include "suite_int.h"

/* ---- B1 ---- */
static const struct ipx_suite_col b1_rows[] = {
	{ "name", "interface", "", "the interface measured (UDP is the "
	  "baseline of this machine)", false },
	{ "pps.median|pps", "packets/s", "packets/s", "packets per second "
	  "(real time: the receiver's, median of the runs; simulated: the "
	  "sender's, every send completed)", false },
	{ "carried_kB_per_s.median", "carried", "kB/s", "payload delivered per "
	  "second (kB = 1000 bytes)", false },
	{ "loss.median", "loss", "packets", "sent but not delivered, median",
	  false },
	{ "ratio_ipx.median", "vs IPX", "", "this rate over IPX datagrams' in "
	  "the same run", false },
	{ "ref_1990_pps|ref_pps", "1990 packets/s", "packets/s", "the note's "
	  "rate for this interface (1990 hardware)", true },
	{ "ref_1990_ratio_ipx", "1990 vs IPX", "", "the note's rate over its "
	  "IPX rate", true },
};
static const struct ipx_suite_col b1_targets[] = {
	{ "name", "target", "", "the comparison", false },
	{ "what", "what", "", "what is set against what", false },
	{ "ratio.median", "ratio", "", "measured ratio, median", false },
	{ "want", "want", "", "the ratio the project requires", false },
	{ "pass", "pass", "", "ratio at least want", false },
};
static const struct ipx_suite_table b1_tables[] = {
	IPX_SUITE_TABLE("Rates beside 1990's", "rows", b1_rows),
	IPX_SUITE_TABLE("Targets", "targets", b1_targets),
};

/* ---- B2 ---- */
static const struct ipx_suite_col b2_tests[] = {
	{ "title", "test", "", "the file-server operation", false },
	{ "workstations", "ws", "", "workstations running it at once", false },
	{ "mean_ops_per_s", "ops/s per ws", "ops/s", "operations per second "
	  "of one workstation, mean over them", false },
	{ "total_ops_per_s", "total ops/s", "ops/s", "all workstations "
	  "together", false },
	{ "wire_kB_per_s", "link kB/s per ws", "kB/s", "IPX bytes a "
	  "workstation's link sent and received, per second", false },
	{ "analyzer_peak_kB_per_s.median", "analyzer peak", "kB/s", "the "
	  "busiest 1 s window on the wire (all stations), as 1990's analyzer "
	  "saw the LAN", false },
	{ "published_peak_kbyte_per_s.local", "1990 peak local", "Kbyte/s",
	  "the note's analyzer peak, one workstation, local LAN", true },
	{ "published_peak_kbyte_per_s.bridged", "1990 peak bridged",
	  "Kbyte/s", "the same across the 1990 WAN bridge", true },
};
static const struct ipx_suite_table b2_tables[] = {
	IPX_SUITE_TABLE("Network Test Battery", "tests", b2_tests),
};

/* ---- B3 ---- */
static const struct ipx_suite_col b3_sizes[] = {
	{ "bytes", "file", "bytes", "the file copied (the note's sizes)",
	  false },
	{ "average", "copy s", "s", "seconds per copy, mean of the copies "
	  "(median over repeats)", false },
	{ "average_min", "min", "s", "the lowest repeat's mean", false },
	{ "average_max", "max", "s", "the highest repeat's mean", false },
	{ "published.local_avg", "1990 local", "s", "the note's mean copy "
	  "time on the local LAN (its times include the copy program's "
	  "start-up on a 1990 PC; ours are the copy alone)", true },
	{ "published.bridged_avg", "1990 bridged", "s", "the note's mean "
	  "copy time across the WAN bridge (start-up included too)", true },
};
static const struct ipx_suite_table b3_tables[] = {
	IPX_SUITE_TABLE("File copy", "sizes", b3_sizes),
};

/* ---- B4 ---- */
static const struct ipx_suite_col b4_ws[] = {
	{ "#", "ws", "", "the workstation", false },
	{ "records", "records", "", "records written in the run", false },
	{ "kB_per_s", "kB/s", "kB/s", "data written per second as the user "
	  "sees it (kB = 1000 bytes)", false },
	{ "kB_per_s_min", "min", "kB/s", "the slowest repeat", false },
	{ "kB_per_s_max", "max", "kB/s", "the fastest repeat", false },
};
static const struct ipx_suite_col b4_total[] = {
	{ "total_kB_per_s", "total kB/s", "kB/s", "every workstation "
	  "together (no 1990 figure was published)", false },
	{ "total_kB_per_s_min", "min", "kB/s", "the slowest repeat", false },
	{ "total_kB_per_s_max", "max", "kB/s", "the fastest repeat", false },
};
static const struct ipx_suite_table b4_tables[] = {
	IPX_SUITE_TABLE("Per workstation", "per_workstation", b4_ws),
	IPX_SUITE_TABLE("Total", NULL, b4_total),
};

/* ---- B5 ---- */
#define B5_BUCKET(B) \
	{ "summary.all.share_percent." B ".median", B " ms", "%", \
	  "share of arrival gaps of " B " ms, median of the repeats", false }
static const struct ipx_suite_col b5_sets[] = {
	{ "workstations", "ws", "", "workstations copying at once", false },
	{ "runs.0.all.packets", "packets", "", "packets on the wire in the "
	  "first repeat", false },
	B5_BUCKET("0-4"), B5_BUCKET("5-9"), B5_BUCKET("10-14"),
	B5_BUCKET("15-19"), B5_BUCKET("20-24"), B5_BUCKET("25-29"),
	B5_BUCKET(">=30"),
	{ "runs.0.all.copy_ms_mean", "copy ms", "ms", "open to close of one "
	  "transfer, mean (no 1990 figure is at hand)", false },
};
static const struct ipx_suite_table b5_tables[] = {
	IPX_SUITE_TABLE("Arrival gaps", "sets", b5_sets),
};

/* ---- B6 ---- */
static const struct ipx_suite_col b6_battery[] = {
	{ "test", "test", "", "the battery test", false },
	{ "workstations", "ws", "", "workstations at once", false },
	{ "local.ops_per_s_per_ws", "local ops/s", "ops/s", "per "
	  "workstation, server on the workstations' LAN", false },
	{ "bridged.ops_per_s_per_ws", "bridged ops/s", "ops/s", "per "
	  "workstation, server across the WAN bridge", false },
	{ "ops_pct", "ops %", "%", "bridged over local", false },
	{ "traffic_pct", "traffic %", "%", "bridged link traffic over local",
	  false },
	{ "published_peak_kbyte_per_s.local", "1990 peak local", "Kbyte/s",
	  "the note's analyzer peak, local", true },
	{ "published_peak_kbyte_per_s.bridged", "1990 peak bridged",
	  "Kbyte/s", "the note's analyzer peak, bridged", true },
};
static const struct ipx_suite_col b6_traffic[] = {
	{ "workstations", "ws", "", "workstations", false },
	{ "pct", "traffic %", "%", "bridged traffic as a share of local, "
	  "mean over the tests", false },
	{ "published_pct", "1990 %", "%", "the note's share", true },
};
static const struct ipx_suite_col b6_steps[] = {
	{ "load_bit_per_s", "offered", "bit/s", "the paced load offered each "
	  "way", false },
	{ "to_ws_carried_bit_per_s", "carried to ws", "bit/s", "what of it "
	  "arrived on the workstations' side", false },
	{ "to_server_carried_bit_per_s", "carried to server", "bit/s",
	  "what arrived on the server's side", false },
	{ "copy_bit_per_s", "copy", "bit/s", "the workstation's copy "
	  "meanwhile", false },
	{ "copy_max_s", "copy s", "s", "its slowest copy", false },
	{ "deadline_s", "deadline", "s", "the time a copy must make", false },
	{ "ok", "ok", "", "every copy made its deadline", false },
};
static const struct ipx_suite_col b6_limit[] = {
	{ "last_completed.load_bit_per_s", "last completed", "bit/s", "the "
	  "highest load at which every copy completed", false },
	{ "published.trunk_bit_per_s_each_way", "1990 trunk", "bit/s", "the "
	  "note's limit each way, above which packets were lost", true },
};
static const struct ipx_suite_col b6_scaling[] = {
	{ "workstations", "ws", "", "workstations at once", false },
	{ "local.ops_per_s_per_ws", "local per ws", "ops/s", "per "
	  "workstation, local", false },
	{ "bridged.ops_per_s_per_ws", "bridged per ws", "ops/s", "per "
	  "workstation, bridged", false },
	{ "local.total_ops_per_s", "local total", "ops/s", "all together, "
	  "local", false },
	{ "bridged.total_ops_per_s", "bridged total", "ops/s", "all "
	  "together, bridged", false },
};
static const struct ipx_suite_table b6_tables[] = {
	IPX_SUITE_TABLE("Battery with and without the bridge", "battery",
			b6_battery),
	IPX_SUITE_TABLE("Bridged traffic share", "traffic_pct_mean",
			b6_traffic),
	IPX_SUITE_TABLE("Throughput limit search", "limit.steps", b6_steps),
	IPX_SUITE_TABLE("Throughput limit", "limit", b6_limit),
	IPX_SUITE_TABLE("Scaling", "scaling.points", b6_scaling),
};

/* ---- B7 ---- */
static const struct ipx_suite_col b7_configs[] = {
	{ "name", "configuration", "", "request mode / buffer: one request "
	  "at a time or packet burst, the default or the tuned buffer",
	  false },
	{ "buffer_asked_bytes", "asked", "bytes", "the buffer asked for "
	  "(0x61)", false },
	{ "status", "status", "", "measured, or why there are no figures: "
	  "burst not offered (the server did not grant packet burst), not "
	  "run (not chosen, or the run was cut short first)", false },
	{ "buffer_granted_bytes", "granted", "bytes", "the buffer the server "
	  "granted", false },
	{ "sizes_measured", "sizes", "", "block sizes measured, from 64,512 "
	  "bytes down (16 in a whole run)", false },
	{ "average_total_kB_per_s", "average", "kB/s", "every workstation's "
	  "data per second together (kB = 1000 bytes), mean over the sizes",
	  false },
	{ "peak_total_kB_per_s", "peak", "kB/s", "the largest total of a "
	  "size", false },
	{ "peak_block_bytes", "peak at", "bytes", "the block size of the "
	  "peak", false },
};
static const struct ipx_suite_col b7_published[] = {
	{ "published.best_average_kbyte_per_s", "1990 best average", "KB/s",
	  "the bulletin's best configuration's average over the sizes (its "
	  "KB, not said to be 1000 or 1024 bytes)", true },
	{ "published.best_peak_kbyte_per_s", "1990 best peak", "KB/s",
	  "the same configuration's peak", true },
	{ "published.ceiling_MB_per_s", "1990 ceiling", "MB/s", "10 Mbit/s "
	  "Ethernet's ceiling, which the bulletin called not reachable",
	  true },
};
/* The total of size S (sizes run from the largest down, so S is always
 * the same block: 64,512 - 4,096 S bytes). */
#define B7_SIZE(S, BYTES) \
	{ "sizes." #S ".total_kB_per_s", BYTES, "kB/s", "all workstations' " \
	  "data per second with blocks of " BYTES " bytes", false }
#define B7_WHICH \
	{ "name", "configuration", "", "request mode / buffer", false }, \
	{ "status", "status", "", "why a row has no figures (- is none)", \
	  false }
static const struct ipx_suite_col b7_large[] = {
	B7_WHICH,
	B7_SIZE(0, "64512"), B7_SIZE(1, "60416"), B7_SIZE(2, "56320"),
	B7_SIZE(3, "52224"), B7_SIZE(4, "48128"), B7_SIZE(5, "44032"),
	B7_SIZE(6, "39936"), B7_SIZE(7, "35840"),
};
static const struct ipx_suite_col b7_small[] = {
	B7_WHICH,
	B7_SIZE(8, "31744"), B7_SIZE(9, "27648"), B7_SIZE(10, "23552"),
	B7_SIZE(11, "19456"), B7_SIZE(12, "15360"), B7_SIZE(13, "11264"),
	B7_SIZE(14, "7168"), B7_SIZE(15, "3072"),
};
static const struct ipx_suite_table b7_tables[] = {
	IPX_SUITE_TABLE("Configurations", "configurations", b7_configs),
	IPX_SUITE_TABLE("The bulletin's best", NULL, b7_published),
	IPX_SUITE_TABLE("Total kB/s, blocks of 64,512 to 35,840 bytes",
			"configurations", b7_large),
	IPX_SUITE_TABLE("Total kB/s, blocks of 31,744 to 3,072 bytes",
			"configurations", b7_small),
};

/* ---- B8 ---- */
static const struct ipx_suite_col b8_configs[] = {
	{ "name", "configuration", "", "the client (one request at a time or "
	  "packet burst) / the driver (batched system calls or one frame per "
	  "system call)", false },
	{ "note_setup", "note", "", "the note's client/driver bits this "
	  "stands for (16 or 32)", false },
	{ "status", "status", "", "why a row has no figures (- is none)",
	  false },
	{ "total_s", "total", "s", "start to the last workstation's last "
	  "image", false },
	{ "initial_lag_s", "lag", "s", "start to the first retrieval's end",
	  false },
	{ "completion_min_s", "first done", "s", "the spread of the "
	  "workstations' completion times: the earliest", false },
	{ "completion_median_s", "median done", "s", "their median", false },
	{ "completion_max_s", "last done", "s", "the latest", false },
	{ "images_kB_per_s", "images", "kB/s", "image data retrieved per "
	  "second, all workstations together (kB = 1000 bytes)", false },
	{ "server_cpu.baseline_pct", "CPU base", "%", "the server's CPU "
	  "baseline: the median of its 100 ms samples, % of one CPU", false },
	{ "server_cpu.peak_pct", "CPU peak", "%", "the largest sample",
	  false },
	{ "rank", "rank", "", "our ranking by total time (equal: the lower "
	  "CPU baseline)", false },
	{ "note_rank", "1990 rank", "", "the note's ranking of this set-up "
	  "by total time", true },
};
#define B8_RANK(I, H) \
	{ "published.ranking_total_time." #I, H, "", "the set-up the note " \
	  "ranks " H " by total time (client/driver bits)", true }
static const struct ipx_suite_col b8_published[] = {
	B8_RANK(0, "1st"), B8_RANK(1, "2nd"), B8_RANK(2, "3rd"),
	B8_RANK(3, "4th"),
	{ "published.straight_cpu_baseline_pct_about", "1990 CPU straight",
	  "%", "the note's server CPU baseline for the straight set-ups "
	  "(16/16, 32/32), about", true },
	{ "published.hybrid_cpu_baseline_pct_about", "1990 CPU hybrid", "%",
	  "the same for the hybrids (16/32, 32/16), about", true },
	{ "published.stations", "1990 ws", "", "the note's workstations",
	  true },
	{ "conditions.stations", "ws", "", "workstations in this run", false },
	{ "conditions.files_per_station", "images each", "", "images each "
	  "workstation retrieved", false },
};
static const struct ipx_suite_table b8_tables[] = {
	IPX_SUITE_TABLE("Configurations ranked by total time", "configurations",
			b8_configs),
	IPX_SUITE_TABLE("The note's ranking and CPU", NULL, b8_published),
};

/* ---- B9 ---- */
static const struct ipx_suite_col b9_runs[] = {
	{ "config", "step", "", "the adapter configuration: the baseline or "
	  "one parameter changed from it (tx size, tx buffers, rx buffers on "
	  "the workstations or the server)", false },
	{ "workload", "workload", "", "large reads or writes over NetBIOS "
	  "sessions or NCP, with 1 or 6 workstations", false },
	{ "kB_per_s", "total", "kB/s", "data moved per second, all "
	  "workstations together (kB = 1000 bytes)", false },
	{ "slowest_ws_kB_per_s", "slowest ws", "kB/s", "the slowest "
	  "workstation's share", false },
	{ "largest_frame_ws_bytes", "frame ws", "bytes", "the largest frame a "
	  "workstation sent (IPX packet and link header)", false },
	{ "largest_frame_srv_bytes", "frame srv", "bytes", "the largest frame "
	  "the server's side sent", false },
	{ "rx_no_buffer_frames", "no rx buffer", "frames", "frames dropped "
	  "for want of a free receive buffer", false },
};
#define B9_PCT(K, H, W) \
	{ "measured_pct." K, H, "%", "percent change of " W " from the first " \
	  "configuration to the second", false }
static const struct ipx_suite_col b9_changes[] = {
	{ "step", "change", "", "the note's change, from one configuration "
	  "to another", false },
	B9_PCT("netbios_read_1ws", "nb rd1", "NetBIOS reads, 1 ws"),
	B9_PCT("netbios_write_1ws", "nb wr1", "NetBIOS writes, 1 ws"),
	B9_PCT("ncp_read_1ws", "ncp rd1", "NCP reads, 1 ws"),
	B9_PCT("ncp_write_1ws", "ncp wr1", "NCP writes, 1 ws"),
	B9_PCT("ncp_read_6ws", "ncp rd6", "NCP reads, 6 ws together"),
	B9_PCT("ncp_write_6ws", "ncp wr6", "NCP writes, 6 ws together"),
	B9_PCT("netbios_read_6ws", "nb rd6", "NetBIOS reads, 6 ws together"),
	B9_PCT("netbios_write_6ws", "nb wr6", "NetBIOS writes, 6 ws "
	       "together"),
	{ "published", "1990", "", "the note's figure for this change (LAN "
	  "Manager over NetBEUI; blank where it gives none)", true },
};
static const struct ipx_suite_col b9_ceiling[] = {
	{ "back_to_back_kB_per_s", "back to back", "kB/s", "30 back-to-back "
	  "2,000-byte frames from the baseline adapter (copy, then wire; kB "
	  "= 1000 bytes)", false },
	{ "per_frame_ms", "per frame", "ms", "milliseconds a frame", false },
	{ "wire_alone_kB_per_s", "wire alone", "kB/s", "what the wire would "
	  "carry without the adapter's copy", false },
	{ "published_back_to_back_in_kB_per_s", "1990", "kB/s", "the note's "
	  "ceiling, a 2,000-byte frame every 3 ms, in kB/s", true },
	{ "published_back_to_back_KB_per_s", "1990 as published", "KB/s",
	  "the same as the note printed it (its KB is 1,024 bytes)", true },
};
static const struct ipx_suite_col b9_six[] = {
	{ "six_ws_netbios_read_kB_per_s", "NetBIOS reads", "kB/s", "six "
	  "workstations reading at once over NetBIOS sessions from one "
	  "server node with the baseline adapter, together (LAN Manager's "
	  "transport: the note's own comparison)", false },
	{ "six_ws_netbios_write_kB_per_s", "NetBIOS writes", "kB/s", "the "
	  "same writing", false },
	{ "six_ws_read_kB_per_s", "NCP reads", "kB/s", "six workstations "
	  "reading at once with the baseline adapter, together", false },
	{ "six_ws_write_kB_per_s", "NCP writes", "kB/s", "the same writing",
	  false },
	{ "published_six_ws_in_kB_per_s", "1990", "kB/s", "the note's six "
	  "workstations together, in kB/s", true },
	{ "published_six_ws_KB_per_s", "1990 as published", "KB/s", "the "
	  "same as the note printed it (its KB is 1,024 bytes)", true },
};
static const struct ipx_suite_table b9_tables[] = {
	IPX_SUITE_TABLE("Steps", "runs", b9_runs),
	IPX_SUITE_TABLE("Changes beside the note's", "changes", b9_changes),
	IPX_SUITE_TABLE("Wire ceiling", "ceiling", b9_ceiling),
	IPX_SUITE_TABLE("Six workstations together", "ceiling", b9_six),
};

#define TABLES(T) (T), sizeof(T) / sizeof((T)[0])

const struct ipx_suite_bench ipx_suite_benches[] = {
	{ "B1", "protocols", "the 1990 protocol comparison",
	  "-c 500 -r 1", "", false,
	  "the suite's B1 tables are of the real-time run, on loopback "
	  "(bench protocols --sim is B1 in simulated time)",
	  60, 600, TABLES(b1_tables), (ipx_plots_b1), "tr4-1990", "" },
	{ "B2", "battery", "the Network Test Battery", "-s 0.5", "", true,
	  NULL, 120, 1200, TABLES(b2_tables), (ipx_plots_b2), "netware-1990",
	  NULL },
	{ "B3", "copy", "the file copy", "", "", true, NULL, 60, 600,
	  TABLES(b3_tables), (ipx_plots_b3), "netware-1990", NULL },
	{ "B4", "perftest", "the performance test", "--quick", "", true,
	  NULL, 60, 600, TABLES(b4_tables), ipx_plots_none, "netware-1990",
	  NULL },
	{ "B5", "arrival", "the packet arrival times", "--quick", "", true,
	  NULL, 60, 600, TABLES(b5_tables), (ipx_plots_b5), "netware-1990",
	  NULL },
	{ "B6", "wan", "the bridged network", "--quick", "", true, NULL,
	  180, 1800, TABLES(b6_tables), (ipx_plots_b6), "netware-1990",
	  NULL },
	{ "B7", "perform3", "throughput against block size", "-s 0.3", "",
	  true, NULL, 120, 900, TABLES(b7_tables), (ipx_plots_b7),
	  "lantastic-1993", NULL },
	{ "B8", "retrieval", "the retrieval test bench (imaging)",
	  "--files 100", "", true, NULL, 120, 1800,
	  TABLES(b8_tables), (ipx_plots_b8), "imaging", NULL },
	{ "B9", "tuning", "buffer and frame-size tuning", "-s 0.1", "", true,
	  NULL, 60, 900, TABLES(b9_tables), (ipx_plots_b9), "lanman-1991", NULL },
};
const size_t ipx_suite_nbenches =
	sizeof(ipx_suite_benches) / sizeof(ipx_suite_benches[0]);

const struct ipx_suite_bench *ipx_suite_find(const char *name)
{
	for (size_t i = 0; i < ipx_suite_nbenches; i++)
		if (!strcmp(name, ipx_suite_benches[i].name) ||
		    !strcasecmp(name, ipx_suite_benches[i].spec))
			return &ipx_suite_benches[i];
	return NULL;
}
