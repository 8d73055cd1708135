/*
 * json_read.c - the JSON reader of bench_json.h: recursive descent over
 * the whole text into a tree of values, numbers kept as written.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ipxlab/bench_json.h"

#define MAX_FILE (64u << 20)

struct jp {
	const char *s;
	size_t len, at;
	char *err;
	size_t errlen;
	bool failed;
};

static void fail(struct jp *p, const char *what)
{
	if (!p->failed && p->errlen)
		snprintf(p->err, p->errlen, "%s at byte %zu", what,
			 p->at < p->len ? p->at : p->len);
	p->failed = true;
}

static void skip_ws(struct jp *p)
{
	while (p->at < p->len && strchr(" \t\r\n", p->s[p->at]) &&
	       p->s[p->at])
		p->at++;
}

static struct ipx_jv *node(struct jp *p, enum ipx_jtype t)
{
	struct ipx_jv *v = calloc(1, sizeof(*v));

	if (!v)
		fail(p, "out of memory");
	else
		v->type = t;
	return v;
}

/* UTF-8 of code point c into out (room for 4). */
static size_t utf8(unsigned long c, char *out)
{
	if (c < 0x80) {
		out[0] = (char)c;
		return 1;
	}
	if (c < 0x800) {
		out[0] = (char)(0xc0 | (c >> 6));
		out[1] = (char)(0x80 | (c & 0x3f));
		return 2;
	}
	if (c < 0x10000) {
		out[0] = (char)(0xe0 | (c >> 12));
		out[1] = (char)(0x80 | ((c >> 6) & 0x3f));
		out[2] = (char)(0x80 | (c & 0x3f));
		return 3;
	}
	out[0] = (char)(0xf0 | (c >> 18));
	out[1] = (char)(0x80 | ((c >> 12) & 0x3f));
	out[2] = (char)(0x80 | ((c >> 6) & 0x3f));
	out[3] = (char)(0x80 | (c & 0x3f));
	return 4;
}

static bool hex4(struct jp *p, unsigned long *out)
{
	unsigned long c = 0;

	if (p->len - p->at < 4)
		return false;
	for (int i = 0; i < 4; i++) {
		char h = p->s[p->at++];

		c <<= 4;
		if (h >= '0' && h <= '9')
			c |= (unsigned long)(h - '0');
		else if (h >= 'a' && h <= 'f')
			c |= (unsigned long)(h - 'a' + 10);
		else if (h >= 'A' && h <= 'F')
			c |= (unsigned long)(h - 'A' + 10);
		else
			return false;
	}
	*out = c;
	return true;
}

/* A \u escape (p->at after the 'u'), a surrogate pair joined. */
static size_t uescape(struct jp *p, char *out)
{
	unsigned long c, lo;

	if (!hex4(p, &c))
		return 0;
	if (c >= 0xdc00 && c <= 0xdfff)
		return 0;
	if (c >= 0xd800 && c <= 0xdbff) {
		if (p->len - p->at < 6 || p->s[p->at] != '\\' ||
		    p->s[p->at + 1] != 'u')
			return 0;
		p->at += 2;
		if (!hex4(p, &lo) || lo < 0xdc00 || lo > 0xdfff)
			return 0;
		c = 0x10000 + ((c - 0xd800) << 10) + (lo - 0xdc00);
	}
	if (c == 0)
		return 0;	/* no NUL inside a C string */
	return utf8(c, out);
}

/* A string (p->at on its opening quote) into a new buffer. */
static char *string(struct jp *p)
{
	static const char esc_in[] = "\"\\/bfnrt", esc_out[] = "\"\\/\b\f\n\r\t";
	size_t start = ++p->at, o = 0, bs;
	char *buf;

	while (p->at < p->len && p->s[p->at] != '"')
		p->at += p->s[p->at] == '\\' ? 2 : 1;
	if (p->at >= p->len) {
		fail(p, "unterminated string");
		return NULL;
	}
	buf = malloc(p->at - start + 1);
	if (!buf) {
		fail(p, "out of memory");
		return NULL;
	}
	for (p->at = start; p->s[p->at] != '"';) {
		unsigned char c = (unsigned char)p->s[p->at++];
		const char *e;
		size_t k;

		if (c < 0x20) {
			p->at--;
			fail(p, "control character in a string");
			free(buf);
			return NULL;
		}
		if (c != '\\') {
			buf[o++] = (char)c;
			continue;
		}
		bs = p->at - 1;
		c = (unsigned char)p->s[p->at++];
		e = c ? strchr(esc_in, c) : NULL;
		if (e) {
			buf[o++] = esc_out[e - esc_in];
			continue;
		}
		k = c == 'u' ? uescape(p, buf + o) : 0;
		if (!k) {
			p->at = bs;
			fail(p, "bad escape in a string");
			free(buf);
			return NULL;
		}
		o += k;	/* \uXXXX: 6 or 12 bytes in, at most 4 out */
	}
	p->at++;
	buf[o] = '\0';
	return buf;
}

/* JSON's grammar of a number: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)? */
static bool number_ok(const char *t)
{
	if (*t == '-')
		t++;
	if (*t == '0')
		t++;
	else if (*t >= '1' && *t <= '9')
		t += strspn(t, "0123456789");
	else
		return false;
	if (*t == '.') {
		if (!strspn(++t, "0123456789"))
			return false;
		t += strspn(t, "0123456789");
	}
	if (*t == 'e' || *t == 'E') {
		t++;
		t += *t == '+' || *t == '-';
		if (!strspn(t, "0123456789"))
			return false;
		t += strspn(t, "0123456789");
	}
	return *t == '\0';
}

static struct ipx_jv *number(struct jp *p)
{
	size_t start = p->at;
	struct ipx_jv *v;
	char *end;

	while (p->at < p->len && strchr("+-0123456789.eE", p->s[p->at]) &&
	       p->s[p->at])
		p->at++;
	v = node(p, IPX_JNUM);
	if (!v)
		return NULL;
	v->text = strndup(p->s + start, p->at - start);
	if (!v->text) {
		free(v);
		fail(p, "out of memory");
		return NULL;
	}
	v->num = strtod(v->text, &end);
	if (!number_ok(v->text) || *end) {
		p->at = start;
		fail(p, "bad number");
		ipx_jv_free(v);
		return NULL;
	}
	return v;
}

static struct ipx_jv *value(struct jp *p, unsigned depth);

/* An array or object's members (p->at after its opening bracket). */
static struct ipx_jv *members(struct jp *p, struct ipx_jv *v, char close,
			      unsigned depth)
{
	struct ipx_jv **tail = &v->kid;

	skip_ws(p);
	if (p->at < p->len && p->s[p->at] == close) {
		p->at++;
		return v;
	}
	for (;;) {
		char *key = NULL;
		struct ipx_jv *m;

		skip_ws(p);
		if (close == '}') {
			if (p->at >= p->len || p->s[p->at] != '"') {
				fail(p, "expected a key");
				break;
			}
			if (!(key = string(p)))
				break;
			skip_ws(p);
			if (p->at >= p->len || p->s[p->at] != ':') {
				free(key);
				fail(p, "expected ':'");
				break;
			}
			p->at++;
		}
		m = value(p, depth + 1);
		if (!m) {
			free(key);
			break;
		}
		m->key = key;
		*tail = m;
		tail = &m->next;
		v->n++;
		skip_ws(p);
		if (p->at < p->len && p->s[p->at] == ',') {
			p->at++;
			continue;
		}
		if (p->at < p->len && p->s[p->at] == close) {
			p->at++;
			return v;
		}
		fail(p, close == '}' ? "expected ',' or '}'"
				     : "expected ',' or ']'");
		break;
	}
	ipx_jv_free(v);
	return NULL;
}

static struct ipx_jv *word(struct jp *p, const char *w, enum ipx_jtype t,
			   double num)
{
	size_t n = strlen(w);
	struct ipx_jv *v;

	if (p->len - p->at < n || memcmp(p->s + p->at, w, n)) {
		fail(p, "unexpected character");
		return NULL;
	}
	p->at += n;
	v = node(p, t);
	if (v)
		v->num = num;
	return v;
}

static struct ipx_jv *value(struct jp *p, unsigned depth)
{
	struct ipx_jv *v;
	char c;

	skip_ws(p);
	if (depth >= IPX_JSON_DEPTH) {
		fail(p, "nested too deep");
		return NULL;
	}
	if (p->at >= p->len) {
		fail(p, "unexpected end");
		return NULL;
	}
	c = p->s[p->at];
	if (c == '{' || c == '[') {
		p->at++;
		v = node(p, c == '{' ? IPX_JOBJ : IPX_JARR);
		return v ? members(p, v, c == '{' ? '}' : ']', depth) : NULL;
	}
	if (c == '"') {
		v = node(p, IPX_JSTR);
		if (v && !(v->text = string(p))) {
			free(v);
			v = NULL;
		}
		return v;
	}
	if (c == '-' || (c >= '0' && c <= '9'))
		return number(p);
	if (c == 't')
		return word(p, "true", IPX_JBOOL, 1);
	if (c == 'f')
		return word(p, "false", IPX_JBOOL, 0);
	return word(p, "null", IPX_JNULL, 0);
}

int ipx_json_parse(const char *text, size_t len, struct ipx_jv **out,
		   char *err, size_t errlen)
{
	struct jp p = { text, len, 0, err, errlen, false };
	struct ipx_jv *v = value(&p, 0);

	if (v) {
		skip_ws(&p);
		if (p.at != len) {
			fail(&p, "trailing characters");
			ipx_jv_free(v);
			v = NULL;
		}
	}
	*out = v;
	return v ? 0 : -1;
}

int ipx_json_load(const char *path, struct ipx_jv **out, char *err,
		  size_t errlen)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	size_t n;
	int rc;

	*out = NULL;
	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	buf = malloc(MAX_FILE);
	n = buf ? fread(buf, 1, MAX_FILE, f) : 0;
	if (!buf || ferror(f) || n == MAX_FILE) {
		snprintf(err, errlen, "%s: %s", path,
			 !buf ? "out of memory" : n == MAX_FILE ? "over 64 MB"
							       : "read error");
		free(buf);
		fclose(f);
		return -1;
	}
	fclose(f);
	rc = ipx_json_parse(buf, n, out, err, errlen);
	free(buf);
	if (rc < 0) {
		char why[160];

		snprintf(why, sizeof(why), "%s", err);
		snprintf(err, errlen, "%s: not JSON: %s", path, why);
	}
	return rc;
}

void ipx_jv_free(struct ipx_jv *v)
{
	while (v) {
		struct ipx_jv *next = v->next;

		ipx_jv_free(v->kid);
		free(v->key);
		free(v->text);
		free(v);
		v = next;
	}
}

const struct ipx_jv *ipx_jv_get(const struct ipx_jv *v, const char *path)
{
	while (v && path && *path) {
		const char *dot = strchr(path, '.');
		size_t n = dot ? (size_t)(dot - path) : strlen(path);
		const struct ipx_jv *m;

		if (v->type == IPX_JARR && n && strspn(path, "0123456789") == n)
			m = ipx_jv_at(v, strtoul(path, NULL, 10));
		else if (v->type != IPX_JOBJ)
			return NULL;
		else
			for (m = v->kid; m; m = m->next)
				if (strlen(m->key) == n &&
				    !memcmp(m->key, path, n))
					break;
		v = m;
		path = dot ? dot + 1 : NULL;
	}
	return v;
}

const struct ipx_jv *ipx_jv_at(const struct ipx_jv *v, size_t i)
{
	const struct ipx_jv *m;

	if (!v || (v->type != IPX_JARR && v->type != IPX_JOBJ))
		return NULL;
	for (m = v->kid; m && i; m = m->next)
		i--;
	return m;
}

bool ipx_jv_num(const struct ipx_jv *v, const char *path, double *out)
{
	v = ipx_jv_get(v, path);
	if (!v || v->type != IPX_JNUM)
		return false;
	*out = v->num;
	return true;
}

const char *ipx_jv_str(const struct ipx_jv *v, const char *path)
{
	v = ipx_jv_get(v, path);
	return v && v->type == IPX_JSTR ? v->text : NULL;
}
