/*
 * version.c - what the binary says about itself and its machine (help
 * texts, benchmark headers), and the command table main.c hands over for
 * the usage lines. Shared code calls these; nothing here calls a command.
 */
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>

#include "cli.h"
/* IPXLAB_VERSION, IPXLAB_COMMIT and IPXLAB_DOCDIR, written by the
 * Makefile. */
#include "version.h"

const char cli_docs[] = IPXLAB_DOCDIR "/docs";

const char *cli_current = "ipxlab";

static const struct cli_cmd *usage_table;

void cli_set_commands(const struct cli_cmd *table)
{
	usage_table = table;
}

void cli_usage_line(FILE *out, const char *name)
{
	for (const struct cli_cmd *c = usage_table; c && c->name; c++)
		if (!strcmp(c->name, name)) {
			fprintf(out, "usage: ipxlab %s %s\n", c->name, c->args);
			return;
		}
}

const char *cli_version_text(void)
{
	return IPXLAB_VERSION " (commit " IPXLAB_COMMIT ")";
}

const char *cli_machine_text(char *buf, size_t len)
{
	struct utsname u;

	if (uname(&u) < 0)
		return "?";
	snprintf(buf, len, "%s %s %s", u.sysname, u.release, u.machine);
	return buf;
}
