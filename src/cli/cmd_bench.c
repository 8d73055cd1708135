/*
 * cmd_bench.c - "ipxlab bench NAME": benchmarks (not tests). Each prints
 * its figures beside a baseline measured in the same run. The measuring
 * is done by the library (src/bench); each benchmark's command is its own
 * cmd_bench_NAME.c. This is the table of them: the names, written once
 * here, give the dispatch, 'ipxlab bench --help', and the synopsis in
 * main.c's command table that the manual page and the completion read.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"

/* X(NAME, RUN, what 'ipxlab bench --help' says after the name); the
 * first is what a bare "ipxlab bench" runs. */
#define BENCH_FIRST(X) \
	X(protocols, bench_protocols, \
	  "  B1, the 1990 protocol comparison: IPX, SPX,\n" \
	  "         SPX II, NetBIOS datagram and session beside UDP,\n" \
	  "         with the 1990 figures (what a bare 'ipxlab bench'\n" \
	  "         runs)\n")
#define BENCH_REST(X) \
	X(hub, bench_hub, \
	  "    hub forwarding rate of 255-byte datagrams between\n" \
	  "         two nodes, beside plain one-hop UDP\n") \
	X(netbios, bench_netbios, \
	  " NetBIOS datagram and session message rates beside\n" \
	  "         IPX, with the round trip that bounds the session\n") \
	X(spx, bench_spx, \
	  "    bulk goodput of SPX I and SPX II over the tunnel\n" \
	  "         and the in-memory link, beside IPX datagrams of\n" \
	  "         the same packet size\n") \
	X(ncp, bench_ncp, \
	  "    NCP 1-byte reads, open/close and a large get\n" \
	  "         beside the round trip measured in the same run\n") \
	X(battery, bench_battery, \
	  " B2, the 1990 Network Test Battery: eleven\n" \
	  "         file-server operations with 1 and 5 workstations\n") \
	X(copy, bench_copy, \
	  "   B3, the 1990 file copy test: seven sizes copied\n" \
	  "         from the server to a workstation's disk\n") \
	X(perftest, bench_perftest, \
	  " B4, the 1990 performance test: 4 KB records\n" \
	  "         written overlaid, kB/s as the user sees it\n") \
	X(arrival, bench_arrival, \
	  " B5, the 1990 packet arrival times: gaps between\n" \
	  "         packets of a 25,184-byte transfer, in buckets\n") \
	X(wan, bench_wan, \
	  "    B6, the 1990 bridged network: the battery with and\n" \
	  "         without the WAN bridge, its throughput limit, and\n" \
	  "         the workstation scaling curve\n") \
	X(perform3, bench_perform3, \
	  " B7, throughput against block size (PERFORM3):\n" \
	  "         16 block sizes read by 5 workstations, request\n" \
	  "         or burst, default or tuned buffer, the curve\n") \
	X(retrieval, bench_retrieval, \
	  "  B8, the 1990 retrieval test bench: 18 workstations\n" \
	  "         retrieve 200 images each, request or burst, batched\n" \
	  "         or single-frame driver, the server's CPU over time\n") \
	X(eth, bench_eth, \
	  "    IPX datagram rate over the Ethernet link between\n" \
	  "         two interfaces, beside raw AF_PACKET frames\n" \
	  "         (bench/eth.sh)\n") \
	X(mount, bench_mount, \
	  "  sequential write and read through 'ipxlab mount'\n" \
	  "         beside the same transfer by the NCP client\n") \
	X(tuning, bench_tuning, \
	  " B9, the 1990 buffer and frame-size tuning: transmit\n" \
	  "         and receive buffers on Token-Ring, NetBIOS and NCP\n") \
	X(suite, bench_suite, \
	  "  every benchmark of the note (B1-B9) in turn into one\n" \
	  "         directory: results, gnuplot plots, index.html\n") \
	X(plot, bench_plot, \
	  "   one saved result's plots, drawn by gnuplot\n")

struct bench_cmd {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary;
};

#define BENCH_ROW(name, run, summary) { #name, run, summary },
static const struct bench_cmd benchmarks[] = {
	BENCH_FIRST(BENCH_ROW) BENCH_REST(BENCH_ROW)
};
#define NBENCH (sizeof(benchmarks) / sizeof(benchmarks[0]))

#define BENCH_NAME(name, run, summary) #name
#define BENCH_NEXT(name, run, summary) " | " #name
const char bench_synopsis[] =
	"[" BENCH_FIRST(BENCH_NAME) BENCH_REST(BENCH_NEXT) "] [options]";

void help_bench(FILE *out)
{
	fprintf(out, "benchmarks:\n");
	for (size_t i = 0; i < NBENCH; i++)
		fprintf(out, "  %s%s", benchmarks[i].name,
			benchmarks[i].summary);
	fprintf(out, "\n'ipxlab bench NAME --help' lists a benchmark's "
		     "options.\n");
}

int cmd_bench(int argc, char **argv)
{
	/* A bare "ipxlab bench [options]" is B1, the protocol comparison. */
	if (argc < 2 || (argv[1][0] == '-' && strcmp(argv[1], "--help") &&
			 strcmp(argv[1], "-h")))
		return benchmarks[0].run(argc, argv);
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		cli_usage_line(stdout, "bench");
		help_bench(stdout);
		return CLI_OK;
	}
	for (size_t i = 0; i < NBENCH; i++)
		if (!strcmp(argv[1], benchmarks[i].name))
			return benchmarks[i].run(argc - 1, argv + 1);
	cli_error("bench", "unknown benchmark '%s'", argv[1]);
	help_bench(stderr);
	return CLI_USAGE;
}
