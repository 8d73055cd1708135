/*
 * cmd_period.c - "ipxlab period [NAME|FILE]": what a period set-up
 * (machine.h, docs/fidelity.md) amounts to: its wire, its bridge, and the
 * file server's and the workstations' machines with every operation's
 * cost on them, so a file can be checked before `--period` runs it.
 */
#include <string.h>

#include "cli.h"
#include "ipxlab/machine.h"

void help_period(FILE *out)
{
	fprintf(out,
		"Print a period set-up as --period runs it: the wire, the\n"
		"bridge if any, the largest IPX packet of the period client, and\n"
		"each machine with its speed (the 8 MHz 80286 = 1), disk and\n"
		"cache, adapter, software and every operation's CPU time on it.\n"
		"A named one (%s) or a period file,\n"
		"checked as --period checks it. Without an argument, every named\n"
		"period. The files and their sources: %s/fidelity.md.\n",
		ipx_period_names(), cli_docs);
}

int cmd_period(int argc, char **argv)
{
	char names[512], *save = NULL;
	struct ipx_period p;
	bool first = true;

	if (argc > 1 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		cli_usage_line(stdout, "period");
		help_period(stdout);
		return CLI_OK;
	}
	if (argc == 2 && argv[1][0] == '-' && argv[1][1]) {
		if (argv[1][1] == '-')
			cli_error("period", "unrecognized option '%s'", argv[1]);
		else
			cli_error("period", "invalid option -- '%c'", argv[1][1]);
		cli_usage_line(stderr, "period");
		return CLI_USAGE;
	}
	if (argc > 2) {
		cli_error("period", "one NAME or FILE at most");
		cli_usage_line(stderr, "period");
		return CLI_USAGE;
	}
	if (argc == 2) {
		if (cli_period_opt("period", argv[1], &p) < 0)
			return CLI_FAIL;
		ipx_period_print(&p, stdout);
		return CLI_OK;
	}
	snprintf(names, sizeof(names), "%s", ipx_period_names());
	for (char *w = strtok_r(names, ", ", &save); w;
	     w = strtok_r(NULL, ", ", &save)) {
		if (cli_period_opt("period", w, &p) < 0)
			return CLI_FAIL;
		if (!first)
			printf("\n");
		first = false;
		ipx_period_print(&p, stdout);
	}
	return CLI_OK;
}
