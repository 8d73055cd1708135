/*
 * mkman_shellcfg.c - writes ipxlab-shell.cfg(5) from its template (stdin
 * to stdout) with the parameter list taken from the SHELL.CFG table in
 * src/base/config.c, through the library's public calls: every parameter
 * with its meaning, unit, range and default, and the defaults NETBIOS
 * INTERNET = ON changes. Built and run by `make man`, so the page cannot
 * drift from the table.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "ipxlab/config.h"

/* One parameter as a tagged paragraph. */
static void parameter(const struct ipx_config *def,
		      const struct ipx_config *inet, size_t i)
{
	const struct ipx_config_param *p = ipx_config_param_at(i);
	char value[64];

	printf(".TP\n.B %s\n%c%s.\n", p->name, toupper((unsigned char)p->help[0]),
	       p->help + 1);
	ipx_config_value_str(def, i, value, sizeof(value));
	if (p->unit == IPX_CFG_ONOFF) {
		printf("ON or OFF; default %s.\n", value);
		return;
	}
	printf("A whole number from %u to %u%s; default %s.\n", p->min, p->max,
	       ipx_config_unit_name(p->unit), value);
	if (ipx_config_value(inet, i) != ipx_config_value(def, i)) {
		ipx_config_value_str(inet, i, value, sizeof(value));
		printf("With NETBIOS INTERNET = ON the default is %s.\n", value);
	}
}

/* The parameters NETBIOS INTERNET = ON gives other defaults, as a list. */
static void internet(const struct ipx_config *def,
		     const struct ipx_config *inet)
{
	for (size_t i = 0; i < ipx_config_param_count(); i++) {
		char from[64], to[64];

		if (ipx_config_value(inet, i) == ipx_config_value(def, i) ||
		    ipx_config_param_at(i)->unit == IPX_CFG_ONOFF)
			continue;
		ipx_config_value_str(def, i, from, sizeof(from));
		ipx_config_value_str(inet, i, to, sizeof(to));
		printf(".TP\n.B %s\n%s instead of %s.\n",
		       ipx_config_param_at(i)->name, to, from);
	}
}

int main(void)
{
	static const char on[] = "NETBIOS INTERNET = ON\n";
	struct ipx_config def, inet;
	char line[1024], err[256];

	ipx_config_defaults(&def);
	ipx_config_defaults(&inet);
	if (ipx_config_parse(&inet, "internet", on, strlen(on), err,
			     sizeof(err)) != 0) {
		fprintf(stderr, "mkman_shellcfg: %s\n", err);
		return 1;
	}
	while (fgets(line, sizeof(line), stdin)) {
		if (!strcmp(line, "@PARAMETERS@\n")) {
			for (size_t i = 0; i < ipx_config_param_count(); i++)
				parameter(&def, &inet, i);
		} else if (!strcmp(line, "@INTERNET@\n")) {
			internet(&def, &inet);
		} else {
			fputs(line, stdout);
		}
	}
	return ferror(stdin) || fflush(stdout) ? 1 : 0;
}
