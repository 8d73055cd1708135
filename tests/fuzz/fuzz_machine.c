/*
 * fuzz_machine.c - libFuzzer harness for the period machine file parser
 * (ipx_period_parse and ipx_machine_parse in src/link/machine.c).
 *
 * The input is the text of a file, parsed as a period ("FUZZ.period")
 * and as a machine ("FUZZ.machine"), with no directory (names resolve
 * to the built-in files only, so nothing is read from disk). On success
 * the result must be sane (a positive speed, finite costs, a wire and
 * both machines for a period) and parsing again must give the same. On
 * failure the message must start with the file's name and a line number
 * within the input (or a space, for whole-file problems), and the output
 * must be untouched. A tiny error buffer must be safe.
 */
#include <math.h>
#include <string.h>

#include "ipxlab/err.h"
#include "ipxlab/machine.h"

#include "fuzz_common.h"

static void machine_sane(const struct ipx_machine *m)
{
	CHECK(m->speed > 0 && isfinite(m->speed));
	CHECK(memchr(m->name, '\0', sizeof(m->name)) != NULL);
	CHECK(memchr(m->what, '\0', sizeof(m->what)) != NULL);
	CHECK(m->nsoftware <= IPX_MACHINE_MAX_SOFTWARE);
	for (int op = 0; op < IPX_COST_OPS; op++)
		(void)ipx_machine_cost_ns(m, (enum ipx_cost_op)op);
	CHECK(!m->cache || m->cache_block);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct ipx_period p, q, porig;
	static struct ipx_machine m, n, morig;
	char err[1024], tiny[8];
	int rc;

	memset(&p, 0xA5, sizeof(p));
	porig = p;
	rc = ipx_period_parse((const char *)data, size, "FUZZ.period", NULL,
			      &p, err, sizeof(err));
	if (rc == IPX_OK) {
		CHECK(p.wire.name[0] != '\0');
		machine_sane(&p.server);
		machine_sane(&p.station);
		CHECK(ipx_period_parse((const char *)data, size, "FUZZ.period",
				       NULL, &q, err, sizeof(err)) == IPX_OK);
		CHECK(!memcmp(&p, &q, sizeof(p)));
	} else {
		CHECK(rc == IPX_ECONFIG);
		CHECK(memchr(err, '\0', sizeof(err)) != NULL);
		fuzz_check_file_error(err, "FUZZ.period",
				      fuzz_count_lines(data, size), 1);
		CHECK(!memcmp(&p, &porig, sizeof(p)));
	}
	memset(tiny, 'X', sizeof(tiny));
	CHECK(ipx_period_parse((const char *)data, size, "FUZZ.period", NULL,
			       &q, tiny, sizeof(tiny)) == rc);
	if (rc != IPX_OK)
		CHECK(memchr(tiny, '\0', sizeof(tiny)) != NULL);

	memset(&m, 0xA5, sizeof(m));
	morig = m;
	rc = ipx_machine_parse((const char *)data, size, "FUZZ.machine", NULL,
			       &m, err, sizeof(err));
	if (rc == IPX_OK) {
		machine_sane(&m);
		CHECK(ipx_machine_parse((const char *)data, size,
					"FUZZ.machine", NULL, &n, err,
					sizeof(err)) == IPX_OK);
		CHECK(!memcmp(&m, &n, sizeof(m)));
	} else {
		CHECK(rc == IPX_ECONFIG);
		fuzz_check_file_error(err, "FUZZ.machine",
				      fuzz_count_lines(data, size), 1);
		CHECK(!memcmp(&m, &morig, sizeof(m)));
	}
	return 0;
}
