/*
 * fuzz_config.c - libFuzzer harness for the SHELL.CFG parser
 * (ipx_config_parse in src/base/config.c).
 *
 * The input is the text of a file named "SHELL.CFG". On success every
 * parameter must lie within its [min, max], each value set in the file
 * must name a line that exists, and parsing the same text again must give
 * the same result. On failure the message must read
 * "SHELL.CFG:LINE: reason" with LINE a line of the input, and the
 * configuration must be left exactly as it was. The parser is also run
 * with a tiny error buffer and with none, which must be safe.
 */
#include <stdlib.h>
#include <string.h>

#include "ipxlab/config.h"
#include "ipxlab/err.h"

#include "fuzz_common.h"

#define NAME "SHELL.CFG"

static void check_values(const struct ipx_config *cfg, size_t lines,
			 const char *file)
{
	CHECK(ipx_config_param_count() == IPX_CFG_NPARAMS);
	for (size_t i = 0; i < ipx_config_param_count(); i++) {
		const struct ipx_config_param *p = ipx_config_param_at(i);
		uint32_t v = ipx_config_value(cfg, i);
		char buf[64];

		CHECK(p);
		CHECK(p->min <= p->max);
		CHECK(v >= p->min && v <= p->max);
		CHECK(cfg->origin[i].kind <= IPX_CFG_FILE);
		if (cfg->origin[i].kind == IPX_CFG_FILE)
			CHECK(cfg->origin[i].line >= 1 &&
			      cfg->origin[i].line <= lines);
		/* The printers must cope with whatever was parsed. */
		ipx_config_value_str(cfg, i, buf, sizeof(buf));
		ipx_config_origin_str(cfg, i, buf, sizeof(buf));
	}
	CHECK(ipx_config_param_at(ipx_config_param_count()) == NULL);
	CHECK(strcmp(cfg->file, file) == 0);
}

/* Field by field: struct copies need not copy padding. */
static bool same_config(const struct ipx_config *a,
			const struct ipx_config *b)
{
	for (size_t i = 0; i < IPX_CFG_NPARAMS; i++)
		if (ipx_config_value(a, i) != ipx_config_value(b, i) ||
		    a->origin[i].kind != b->origin[i].kind ||
		    a->origin[i].line != b->origin[i].line)
			return false;
	return strcmp(a->file, b->file) == 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ipx_config cfg, orig, again;
	char err[512];
	char *tiny;
	size_t lines = fuzz_count_lines(data, size);
	int rc, rc2;

	ipx_config_defaults(&cfg);
	check_values(&cfg, 0, "");
	/* Start from a non-default configuration: the parser must not mix
	 * it into the result of a failed parse. */
	cfg.ipx_sockets = 100;
	cfg.origin[0].line = 0xDEADBEEF;
	orig = cfg;
	memset(err, 'X', sizeof(err));
	err[sizeof(err) - 1] = '\0';
	rc = ipx_config_parse(&cfg, NAME, (const char *)data, size, err,
			      sizeof(err));
	if (rc == IPX_OK) {
		check_values(&cfg, lines, NAME);
		again = orig;
		CHECK(ipx_config_parse(&again, NAME, (const char *)data, size,
				       NULL, 0) == IPX_OK);
		CHECK(same_config(&again, &cfg));
	} else {
		CHECK(rc == IPX_ECONFIG);
		CHECK(memchr(err, '\0', sizeof(err)) != NULL);
		fuzz_check_file_error(err, NAME, lines, 0);
		CHECK(same_config(&cfg, &orig));
	}

	/* Small and missing error buffers: same verdict, no overflow. */
	tiny = malloc(8);
	CHECK(tiny);
	again = orig;
	rc2 = ipx_config_parse(&again, NAME, (const char *)data, size, tiny, 8);
	CHECK(rc2 == rc);
	if (rc2 != IPX_OK)
		CHECK(memchr(tiny, '\0', 8) != NULL);
	free(tiny);
	again = orig;
	CHECK(ipx_config_parse(&again, NAME, (const char *)data, size, NULL,
			       0) == rc);
	return 0;
}
