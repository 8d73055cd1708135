/*
 * cmd_config.c - "ipxlab config [FILE]": print the effective SHELL.CFG
 * settings and where each came from, or refuse the file with the line
 * that is wrong.
 */
#include <getopt.h>
#include <string.h>

#include "cli.h"
#include "ipxlab/err.h"

void help_config(FILE *out)
{
	fprintf(out,
		"Read FILE (SHELL.CFG style: 'KEY = VALUE' lines, ';' comments) and\n"
		"print every setting with its value and its origin. Without FILE,\n"
		"print the defaults. Exits 1 with 'file:line: problem' on a bad\n"
		"file. Timeouts are in ticks of 1/18.2 s.\n\n"
		"parameters (default, range):\n");
	for (size_t i = 0; i < ipx_config_param_count(); i++) {
		const struct ipx_config_param *p = ipx_config_param_at(i);

		if (p->unit == IPX_CFG_ONOFF)
			fprintf(out, "  %-24s OFF, ON or OFF\n", p->name);
		else
			fprintf(out, "  %-24s %u, %u-%u%s\n", p->name, p->def,
				p->min, p->max,
				p->unit == IPX_CFG_TICKS  ? " ticks"
				: p->unit == IPX_CFG_MSEC ? " ms"
							  : "");
	}
	fprintf(out,
		"\nNETBIOS INTERNET = ON changes the defaults of NETBIOS RETRY COUNT\n"
		"(10 -> 20), BROADCAST COUNT (2 -> 4) and BROADCAST DELAY (18 -> 38)\n"
		"unless those are set explicitly. IPATCH and NPATCH are refused.\n");
}

int cmd_config(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct ipx_config cfg;
	char err[512];
	int opt;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		if (opt == 'h') {
			cli_usage_line(stdout, "config");
			help_config(stdout);
			return CLI_OK;
		}
		return cli_bad_option("config", argv, "h", longopts);
	}
	if (argc - optind > 1) {
		cli_error("config", "one FILE at most");
		return CLI_USAGE;
	}
	ipx_config_defaults(&cfg);
	if (optind < argc &&
	    ipx_config_load(&cfg, argv[optind], err, sizeof(err)) != IPX_OK) {
		fprintf(stderr, "ipxlab config: %s\n", err);
		return CLI_FAIL;
	}
	printf("%-24s %-20s %s\n", "PARAMETER", "VALUE", "FROM");
	for (size_t i = 0; i < ipx_config_param_count(); i++) {
		char value[64], origin[300];

		ipx_config_value_str(&cfg, i, value, sizeof(value));
		ipx_config_origin_str(&cfg, i, origin, sizeof(origin));
		printf("%-24s %-20s %s\n", ipx_config_param_at(i)->name, value,
		       origin);
	}
	return CLI_OK;
}
