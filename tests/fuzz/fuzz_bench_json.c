/*
 * fuzz_bench_json.c - libFuzzer harness for the saved results' JSON
 * reader (ipx_json_parse in src/bench/json_read.c), which reads files
 * from other machines ('ipxlab bench plot').
 *
 * On success the tree must be consistent: every member counted by its
 * parent, keys exactly on an object's members, numbers with their text,
 * strings without a NUL; parsing the same bytes again gives the same
 * tree shape; lookups by paths taken from the input never fail to
 * return NULL or a member. On failure the message must name a byte
 * within the input. A tiny error buffer must be safe.
 */
#include <stdlib.h>
#include <string.h>

#include "ipxlab/bench_json.h"

#include "fuzz_common.h"

static size_t walk(const struct ipx_jv *v, unsigned depth)
{
	size_t nodes = 1, n = 0;

	CHECK(depth < IPX_JSON_DEPTH);
	if (v->type == IPX_JNUM || v->type == IPX_JSTR)
		CHECK(v->text != NULL);
	if (v->type != IPX_JARR && v->type != IPX_JOBJ) {
		CHECK(v->kid == NULL && v->n == 0);
		return nodes;
	}
	for (const struct ipx_jv *m = v->kid; m; m = m->next) {
		CHECK((m->key != NULL) == (v->type == IPX_JOBJ));
		if (m->key && !strchr(m->key, '.'))	/* '.' splits a path */
			CHECK(ipx_jv_get(v, m->key) != NULL);
		CHECK(ipx_jv_at(v, n) == m);
		nodes += walk(m, depth + 1);
		n++;
	}
	CHECK(n == v->n);
	return nodes;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ipx_jv *v = NULL, *w = NULL;
	char err[128], tiny[4];
	char path[64];

	if (ipx_json_parse((const char *)data, size, &v, err, sizeof(err)) <
	    0) {
		const char *at = strstr(err, " at byte ");

		CHECK(v == NULL);
		CHECK(at != NULL);
		CHECK(strtoull(at + 9, NULL, 10) <= size);
		CHECK(ipx_json_parse((const char *)data, size, &w, tiny,
				     sizeof(tiny)) < 0);
		CHECK(ipx_json_parse((const char *)data, size, &w, NULL, 0) <
		      0);
		return 0;
	}
	CHECK(v != NULL);
	CHECK(ipx_json_parse((const char *)data, size, &w, NULL, 0) == 0);
	CHECK(walk(v, 0) == walk(w, 0));
	/* Paths made of the input's bytes: any answer, no crash. */
	snprintf(path, sizeof(path), "%.*s", (int)(size < 63 ? size : 63),
		 (const char *)data);
	(void)ipx_jv_get(v, path);
	(void)ipx_jv_str(v, path);
	ipx_jv_free(v);
	ipx_jv_free(w);
	return 0;
}
