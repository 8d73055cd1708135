/*
 * fuzz_capture.c - libFuzzer harness for the one-line packet summaries of
 * "ipxlab capture" (src/capture/dissect.c).
 *
 * The input is summarised as an IPX packet and as a whole Ethernet frame,
 * into a roomy buffer and into small ones. Checked: the line is always
 * NUL-terminated, its length is what the function returns and less than
 * the buffer, nothing is read beyond the input (ASan), and a smaller buffer
 * gets a prefix of the same line.
 */
#include <string.h>

#include "ipxlab/capture.h"

#include "fuzz_common.h"

static void check(size_t (*describe)(const uint8_t *, size_t, char *, size_t),
		  const uint8_t *data, size_t size)
{
	char full[1024], small[40];
	size_t n = describe(data, size, full, sizeof(full));

	CHECK(n < sizeof(full));
	CHECK(strlen(full) == n);
	for (size_t cap = 1; cap <= sizeof(small); cap += 13) {
		size_t m = describe(data, size, small, cap);

		CHECK(m < cap);
		CHECK(strlen(small) == m);
		CHECK(m <= n && memcmp(small, full, m) == 0);
	}
	CHECK(describe(data, size, small, 0) == 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* A private copy, exactly 'size' bytes long, so ASan sees overreads. */
	uint8_t *copy = malloc(size ? size : 1);

	if (!copy)
		return 0;
	if (size)
		memcpy(copy, data, size);
	check(ipx_capture_describe, copy, size);
	check(ipx_capture_describe_frame, copy, size);
	free(copy);
	return 0;
}
