/*
 * fuzz_profile.c - libFuzzer harness for the link-profile file parser
 * (ipx_profile_parse in src/link/profile.c).
 *
 * The input is the text of a file named "FUZZ.profile". On success the
 * profile must pass ipx_profile_check, its wire arithmetic must be sane
 * for every packet size it carries, and parsing again must give the same
 * profile. On failure the message must start "FUZZ.profile:" followed by
 * a line number within the input (or a space, for whole-file problems)
 * and a reason, and the output profile must be untouched. A tiny error
 * buffer must be safe.
 */
#include <string.h>

#include "ipxlab/err.h"
#include "ipxlab/link_profile.h"

#include "fuzz_common.h"

#define NAME "FUZZ.profile"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ipx_profile p, q, orig;
	char err[512], tiny[8];
	int rc;

	memset(&p, 0xA5, sizeof(p));
	orig = p;
	rc = ipx_profile_parse((const char *)data, size, NAME, &p, err,
			       sizeof(err));
	if (rc == IPX_OK) {
		CHECK(ipx_profile_check(&p, err, sizeof(err)) == IPX_OK);
		CHECK(memchr(p.name, '\0', sizeof(p.name)) != NULL);
		CHECK(ipx_profile_mtu(&p) >= 30);
		for (size_t len = 30; len <= ipx_profile_mtu(&p);
		     len += 1 + len / 3) {
			uint64_t b = ipx_profile_wire_bytes(&p, len);

			CHECK(b >= len && b <= len + 64 + 4096 + p.min_frame);
			CHECK(!p.rate || ipx_profile_wire_ns(&p, len) > 0);
		}
		CHECK(ipx_profile_parse((const char *)data, size, NAME, &q, err,
					sizeof(err)) == IPX_OK);
		CHECK(q.rate == p.rate && q.max_frame == p.max_frame &&
		      q.delay_ns == p.delay_ns && q.access == p.access &&
		      !strcmp(q.name, p.name));
	} else {
		CHECK(rc == IPX_ECONFIG);
		CHECK(memchr(err, '\0', sizeof(err)) != NULL);
		fuzz_check_file_error(err, NAME, fuzz_count_lines(data, size), 1);
		CHECK(!memcmp(&p, &orig, sizeof(p)));
	}
	memset(tiny, 'X', sizeof(tiny));
	CHECK(ipx_profile_parse((const char *)data, size, NAME, &q, tiny,
				sizeof(tiny)) == rc);
	if (rc != IPX_OK)
		CHECK(memchr(tiny, '\0', sizeof(tiny)) != NULL);
	return 0;
}
