/*
 * cmd_profile.c - "ipxlab profile [NAME|FILE]": a link profile as a
 * profile file would say it (link_profile.h, docs/links.md), so a named
 * one can be copied and changed, or a file checked before a run.
 */
#include <string.h>

#include "cli.h"
#include "ipxlab/link_profile.h"

void help_profile(FILE *out)
{
	fprintf(out,
		"Print a link profile, one 'key value' line per parameter, as a\n"
		"profile file takes them: a named one (%s) or a file,\n"
		"checked as --profile checks it. Without an argument, every named\n"
		"profile, each after a '# NAME' line.\n",
		ipx_profile_names);
}

int cmd_profile(int argc, char **argv)
{
	static const char *const names[] = { "eth10", "tr4", "tr16", "isn" };
	struct ipx_profile p;

	if (argc > 1 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		cli_usage_line(stdout, "profile");
		help_profile(stdout);
		return CLI_OK;
	}
	if (argc == 2 && argv[1][0] == '-' && argv[1][1]) {
		if (argv[1][1] == '-')
			cli_error("profile", "unrecognized option '%s'", argv[1]);
		else
			cli_error("profile", "invalid option -- '%c'", argv[1][1]);
		cli_usage_line(stderr, "profile");
		return CLI_USAGE;
	}
	if (argc > 2) {
		cli_error("profile", "one NAME or FILE at most");
		cli_usage_line(stderr, "profile");
		return CLI_USAGE;
	}
	if (argc == 2) {
		if (cli_profile_opt("profile", NULL, argv[1], &p) < 0)
			return CLI_FAIL;
		ipx_profile_print(&p, stdout);
		return CLI_OK;
	}
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		ipx_profile_named(names[i], &p);
		printf("%s# %s\n", i ? "\n" : "", names[i]);
		ipx_profile_print(&p, stdout);
	}
	return CLI_OK;
}
