/*
 * bench_json.h - a small JSON reader for saved benchmark results: the
 * suite's report and `ipxlab bench plot` read back what the result writer
 * (bench_result.h) wrote, here or on another machine.
 *
 * A document is parsed whole into a tree of values. A number keeps its
 * text as written (so a table shows the figure as the benchmark printed
 * it) besides its value as a double. Values are looked up by a path of
 * object keys separated by '.', e.g. "published.local_avg", a number
 * naming an array's element ("runs.0.all.packets"), or by ipx_jv_at. Nesting deeper than IPX_JSON_DEPTH, bad escapes,
 * a NUL byte and trailing garbage are refused with the byte offset of the
 * fault.
 */
#ifndef IPXLAB_BENCH_JSON_H
#define IPXLAB_BENCH_JSON_H

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define IPX_JSON_DEPTH 64

enum ipx_jtype {
	IPX_JNULL,
	IPX_JBOOL,
	IPX_JNUM,
	IPX_JSTR,
	IPX_JARR,
	IPX_JOBJ,
};

struct ipx_jv {
	enum ipx_jtype type;
	char *key;		/* inside an object; else NULL */
	char *text;		/* a string's value, a number's text */
	double num;		/* a number's value; a bool's 0 or 1 */
	struct ipx_jv *kid;	/* an array's or object's first member */
	struct ipx_jv *next;	/* the next member of the parent */
	size_t n;		/* an array's or object's members */
};

/* Parse len bytes of text: the root value into *out (free with
 * ipx_jv_free), or -1 with a message in err. */
int ipx_json_parse(const char *text, size_t len, struct ipx_jv **out,
		   char *err, size_t errlen);
/* Read and parse a file (at most 64 MB). */
int ipx_json_load(const char *path, struct ipx_jv **out, char *err,
		  size_t errlen);
void ipx_jv_free(struct ipx_jv *v);

/* The value at a dotted path of keys below v ("" or NULL: v itself);
 * NULL when a key is missing or a step is not an object. */
const struct ipx_jv *ipx_jv_get(const struct ipx_jv *v, const char *path);
/* An array's (or object's) element i; NULL past the end. */
const struct ipx_jv *ipx_jv_at(const struct ipx_jv *v, size_t i);
/* The number at path into *out: false when it is missing or not a
 * number (null included). */
bool ipx_jv_num(const struct ipx_jv *v, const char *path, double *out);
/* The string at path, or NULL. */
const char *ipx_jv_str(const struct ipx_jv *v, const char *path);

#ifdef __cplusplus
}
#endif

#endif
