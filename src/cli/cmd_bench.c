/*
 * cmd_bench.c - "ipxlab bench NAME": benchmarks (not tests). Each prints
 * its figures beside a baseline measured in the same run.
 */
#include <string.h>

#include "cli.h"

void help_bench(FILE *out)
{
	fprintf(out, "benchmarks:\n"
		     "  hub    hub forwarding rate of 255-byte datagrams between\n"
		     "         two nodes, beside plain one-hop UDP\n");
}

int cmd_bench(int argc, char **argv)
{
	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		cli_usage_line(argc < 2 ? stderr : stdout, "bench");
		help_bench(argc < 2 ? stderr : stdout);
		return argc < 2 ? CLI_USAGE : CLI_OK;
	}
	cli_error("bench", "unknown benchmark '%s'", argv[1]);
	return CLI_USAGE;
}
