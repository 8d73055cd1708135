/*
 * test_ncp_ns.c - the name-space calls (NCP 0x57) of the server, sent by
 * hand on the in-memory link: name spaces loaded, the volume lookup
 * ncpfs's ncptest makes, obtain info in either name space, open/create,
 * initialize search and search (one and a set), rename, delete, modify, short directory
 * handles, directory bases; the DOS aliases of long names and how they
 * stay; every refusal with its completion code and counter; and the
 * path-confinement tests of test_ncp_safety.c repeated through the LONG
 * name space (nothing outside the volume read or changed).
 */
#include "cm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ipxlab/bytes.h"
#include "ncprig.h"

enum { DOS = 0, LONG = 4, RIM_ALL = 0x0FFF };

struct req {
	uint8_t b[600];
	size_t n;
};

static void u8(struct req *q, uint8_t v) { q->b[q->n++] = v; }
static void le16(struct req *q, uint16_t v)
{
	ipx_put16le(q->b + q->n, v);
	q->n += 2;
}
static void le32(struct req *q, uint32_t v)
{
	le16(q, (uint16_t)v);
	le16(q, (uint16_t)(v >> 16));
}
static void comp(struct req *q, const char *s)
{
	size_t n = strlen(s);

	u8(q, (uint8_t)n);
	memcpy(q->b + q->n, s, n);
	q->n += n;
}
static uint32_t get32le(const uint8_t *p)
{
	return ipx_get16le(p) | (uint32_t)ipx_get16le(p + 2) << 16;
}

/* A handle path: style 0xFF with the volume first, or a base / handle. */
static void hpath(struct req *q, uint8_t vol, uint32_t base, uint8_t style,
		  int n, const char *const *c)
{
	u8(q, vol);
	le32(q, base);
	u8(q, style);
	u8(q, (uint8_t)n);
	for (int i = 0; i < n; i++)
		comp(q, c[i]);
}

struct ns {
	struct ncprig *r;
	struct rawconn *b;
	size_t len;
};

static const uint8_t *call(struct ns *s, const struct req *q)
{
	return rawconn_call(s->r, s->b, 0x57, q->b, q->n, &s->len);
}

static uint64_t refused(struct ns *s, enum ncp_srv_refusal why)
{
	return ncp_server_stats(s->r->srv)->refusals[why];
}

static void put_file(struct ns *s, const char *dir, const char *name,
		     const char *text)
{
	char p[1200];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s/%s", s->r->sys, dir, name);
	f = fopen(p, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static int setup(void **state)
{
	struct ns *s = calloc(1, sizeof(*s));
	char p[700], q[700];

	s->r = ncprig_new(NULL);
	put_file(s, ".", "Quarterly Report 2026.txt", "report\n");
	put_file(s, ".", "short.txt", "short\n");
	snprintf(p, sizeof(p), "%s/My Documents", s->r->sys);
	assert_int_equal(mkdir(p, 0755), 0);
	put_file(s, "My Documents", "Letter to Anna.doc", "letter\n");
	snprintf(p, sizeof(p), "%s/Link Out", s->r->sys);
	assert_int_equal(symlink(s->r->outside, p), 0);
	snprintf(p, sizeof(p), "%s/Secret Link.txt", s->r->sys);
	snprintf(q, sizeof(q), "%s/SECRET.TXT", s->r->outside);
	assert_int_equal(symlink(q, p), 0);
	s->b = rawconn_open(s->r, true);
	*state = s;
	return 0;
}

static int teardown(void **state)
{
	struct ns *s = *state;
	char p[700];
	struct stat st;

	/* The rig's secret outside the volume is where it was, unchanged. */
	snprintf(p, sizeof(p), "%s/SECRET.TXT", s->r->outside);
	assert_int_equal(stat(p, &st), 0);
	assert_int_equal((int)(st.st_mode & 0777), 0644);
	rawconn_close(s->b);
	ncprig_free(s->r);
	free(s);
	return 0;
}

/* 0x06 obtain info of SYS:<names...> (style 0xFF) from ns into dns. */
static const uint8_t *info(struct ns *s, uint8_t ns, uint8_t dns, int n,
			   const char *const *c)
{
	struct req q = { .n = 0 };

	u8(&q, 0x06);
	u8(&q, ns);
	u8(&q, dns);
	le16(&q, 0x8006);
	le32(&q, RIM_ALL);
	hpath(&q, 0, 0, 0xFF, n, c);
	return call(s, &q);
}

/* The name after the 76 bytes of an info structure starting at p. */
static void name_of(const uint8_t *p, char *out)
{
	memcpy(out, p + 77, p[76]);
	out[p[76]] = '\0';
}

static void loaded_and_volume(void **state)
{
	struct ns *s = *state;
	struct req q = { .n = 0 };
	const uint8_t *rep;
	char name[300];
	uint32_t base;

	/* 0x18: DOS and LONG on every volume; no volume 9. */
	u8(&q, 0x18); le16(&q, 0); u8(&q, 0);
	rep = call(s, &q);
	assert_int_equal(rep[6], 0);
	assert_int_equal(s->len, 8 + 4);
	assert_int_equal(ipx_get16le(rep + 8), 2);
	assert_int_equal(rep[10], DOS);
	assert_int_equal(rep[11], LONG);
	q.n = 0;
	u8(&q, 0x18); le16(&q, 0); u8(&q, 9);
	assert_int_equal(call(s, &q)[6], 0x98);
	/* What ncptest does first: 0x16 with the volume's name (ncpfs's
	 * ncp_do_lookup), then 0x06 on the base it got. */
	q.n = 0;
	u8(&q, 0x16); u8(&q, DOS); u8(&q, DOS); u8(&q, 0); u8(&q, 0);
	hpath(&q, 0, 0, 0xFF, 1, (const char *[]){ "SYS" });
	rep = call(s, &q);
	assert_int_equal(rep[6], 0);
	assert_int_equal(s->len, 8 + 9);
	base = get32le(rep + 8);
	assert_int_equal(get32le(rep + 12), base);
	assert_int_equal(rep[16], 0);
	q.n = 0;
	u8(&q, 0x06); u8(&q, DOS); u8(&q, DOS); le16(&q, 0xFF);
	le32(&q, RIM_ALL);
	hpath(&q, 0, base, 1, 0, NULL);
	rep = call(s, &q);
	assert_int_equal(rep[6], 0);
	assert_int_equal(get32le(rep + 8 + 4) & 0x10, 0x10);	/* a dir */
	assert_int_equal(get32le(rep + 8 + 48), base);
	name_of(rep + 8, name);
	assert_string_equal(name, "SYS");
	/* "SYS:" in one component (NetWare clients send it so) works too;
	 * a volume the server has not: 0x98. */
	q.n = 0;
	u8(&q, 0x16); u8(&q, DOS); u8(&q, DOS); u8(&q, 0); u8(&q, 0);
	hpath(&q, 0, 0, 0xFF, 1, (const char *[]){ "sys:" });
	assert_int_equal(call(s, &q)[6], 0);
	q.n = 0;
	u8(&q, 0x16); u8(&q, DOS); u8(&q, DOS); u8(&q, 0); u8(&q, 0);
	hpath(&q, 0, 0, 0xFF, 1, (const char *[]){ "NOPE" });
	assert_int_equal(call(s, &q)[6], 0x98);
}

static void long_and_alias(void **state)
{
	struct ns *s = *state;
	const char *lng[] = { "SYS", "Quarterly Report 2026.txt" };
	const uint8_t *rep;
	char name[300], alias[300];
	uint32_t ent;

	rep = info(s, LONG, LONG, 2, lng);
	assert_int_equal(rep[6], 0);
	name_of(rep + 8, name);
	assert_string_equal(name, "Quarterly Report 2026.txt");
	assert_int_equal(get32le(rep + 8 + 10), 7);	/* data stream size */
	assert_int_equal(get32le(rep + 8 + 72), LONG);	/* made there */
	ent = get32le(rep + 8 + 48);
	/* Any case finds it in the LONG name space. */
	rep = info(s, LONG, DOS, 2,
		   (const char *[]){ "SYS", "QUARTERLY report 2026.TXT" });
	assert_int_equal(rep[6], 0);
	name_of(rep + 8, alias);
	/* Its DOS name: 2 letters, 4 hex digits, ~1, the extension. */
	assert_int_equal(strlen(alias), 12);
	assert_memory_equal(alias, "QU", 2);
	assert_string_equal(alias + 6, "~1.TXT");
	/* The alias names the same entry in the DOS name space. */
	rep = info(s, DOS, LONG, 2, (const char *[]){ "SYS", alias });
	assert_int_equal(rep[6], 0);
	assert_int_equal(get32le(rep + 8 + 48), ent);
	name_of(rep + 8, name);
	assert_string_equal(name, "Quarterly Report 2026.txt");
	/* A short lower-case host name: SHORT.TXT in DOS, short.txt in LONG. */
	rep = info(s, DOS, LONG, 2, (const char *[]){ "SYS", "SHORT.TXT" });
	assert_int_equal(rep[6], 0);
	name_of(rep + 8, name);
	assert_string_equal(name, "short.txt");
	/* Stable: files that sort before it and share its first letters
	 * do not move it. */
	put_file(s, ".", "Quarterly Report 2025.txt", "old\n");
	put_file(s, ".", "Quarterly Apples.txt", "apples\n");
	rep = info(s, LONG, DOS, 2, lng);
	name_of(rep + 8, name);
	assert_string_equal(name, alias);
	/* A real 8.3 file of the alias's very name wins it; the long name
	 * moves to ~2 (docs/ncp.md). */
	put_file(s, ".", alias, "real\n");
	rep = info(s, DOS, LONG, 2, (const char *[]){ "SYS", alias });
	name_of(rep + 8, name);
	assert_string_equal(name, alias);
	rep = info(s, LONG, DOS, 2, lng);
	name_of(rep + 8, name);
	assert_string_equal(name + 6, "~2.TXT");
}

/* 0x01 open/create of SYS:<names> in ns: the reply. */
static const uint8_t *open_create(struct ns *s, uint8_t ns, uint8_t mode,
				  uint32_t cattr, uint16_t rights, int n,
				  const char *const *c)
{
	struct req q = { .n = 0 };

	u8(&q, 0x01); u8(&q, ns); u8(&q, mode); le16(&q, 0x8006);
	le32(&q, RIM_ALL); le32(&q, cattr); le16(&q, rights);
	hpath(&q, 0, 0, 0xFF, n, c);
	return call(s, &q);
}

static void create_write_read(void **state)
{
	struct ns *s = *state;
	const char *nm[] = { "SYS", "My Documents", "Notes for Monday.txt" };
	const uint8_t *rep;
	uint8_t h[6], wr[40];
	char p[800], buf[32];
	FILE *f;
	size_t n;

	rep = open_create(s, LONG, 0x0B, 0, 0x03, 3, nm);
	assert_int_equal(rep[6], 0);
	assert_int_equal(rep[12], 0x03);	/* opened, created */
	/* ncpfs's 6-byte handle: the low half of the 4 plus one, the 4. */
	memcpy(h + 2, rep + 8, 4);
	ipx_put16le(h, (uint16_t)(ipx_get16le(rep + 8) + 1));
	memset(wr, 0, sizeof(wr));
	memcpy(wr + 1, h, 6);
	ipx_put32(wr + 7, 0);
	ipx_put16(wr + 11, 5);
	memcpy(wr + 13, "hello", 5);
	assert_int_equal(rawconn_call(s->r, s->b, 0x49, wr, 18, &n)[6], 0);
	assert_int_equal(rawconn_call(s->r, s->b, 0x42, wr, 7, &n)[6], 0);
	snprintf(p, sizeof(p), "%s/My Documents/Notes for Monday.txt",
		 s->r->sys);
	f = fopen(p, "r");
	assert_non_null(f);
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	assert_int_equal(n, 5);
	assert_memory_equal(buf, "hello", 5);
	/* Create only (0x08) over it: 0x85; open (0x01) of a missing one:
	 * 0xFF; replace truncates. */
	assert_int_equal(open_create(s, LONG, 0x08, 0, 3, 3, nm)[6], 0x85);
	assert_int_equal(open_create(s, LONG, 0x01, 0, 1, 3,
		(const char *[]){ "SYS", "My Documents", "nope" })[6], 0xFF);
	rep = open_create(s, LONG, 0x02, 0, 0x03, 3, nm);
	assert_int_equal(rep[6], 0);
	assert_int_equal(rep[12], 0x05);	/* opened, replaced */
	assert_int_equal(get32le(rep + 14 + 10), 0);
	/* A directory by create attribute 0x10, in the LONG name space. */
	rep = open_create(s, LONG, 0x08, 0x10, 0, 2,
			  (const char *[]){ "SYS", "New Folder" });
	assert_int_equal(rep[6], 0);
	snprintf(p, sizeof(p), "%s/New Folder", s->r->sys);
	assert_int_equal(access(p, F_OK), 0);
	/* The DOS name space creates upper-case 8.3 names. */
	rep = open_create(s, DOS, 0x0B, 0, 3, 2,
			  (const char *[]){ "SYS", "dosfile.txt" });
	assert_int_equal(rep[6], 0);
	snprintf(p, sizeof(p), "%s/DOSFILE.TXT", s->r->sys);
	assert_int_equal(access(p, F_OK), 0);
}

/* Every name a search of SYS:<dir> in ns returns, space-separated. */
static void search_all(struct ns *s, uint8_t ns, const char *dir,
		       const char *pattern, char *out)
{
	struct req q = { .n = 0 };
	const uint8_t *rep;
	uint8_t seq[9];
	char name[300];

	out[0] = '\0';
	u8(&q, 0x02); u8(&q, ns); u8(&q, 0);
	if (dir)
		hpath(&q, 0, 0, 0xFF, 2, (const char *[]){ "SYS", dir });
	else
		hpath(&q, 0, 0, 0xFF, 1, (const char *[]){ "SYS" });
	rep = call(s, &q);
	assert_int_equal(rep[6], 0);
	assert_int_equal(s->len, 8 + 9);
	memcpy(seq, rep + 8, 9);
	assert_int_equal(get32le(seq + 5), 0xFFFFFFFF);
	for (int i = 0; i < 50; i++) {
		q.n = 0;
		u8(&q, 0x03); u8(&q, ns); u8(&q, 0); le16(&q, 0x8006);
		le32(&q, RIM_ALL);
		memcpy(q.b + q.n, seq, 9);
		q.n += 9;
		comp(&q, pattern);
		rep = call(s, &q);
		if (rep[6] == 0xFF)
			return;
		assert_int_equal(rep[6], 0);
		memcpy(seq, rep + 8, 9);
		name_of(rep + 18, name);
		strcat(out, name);
		strcat(out, "|");
	}
	fail();
}

static void search(void **state)
{
	struct ns *s = *state;
	char list[2000], alias[300];
	const uint8_t *rep;

	search_all(s, LONG, NULL, "\xFF*", list);
	/* Sorted by DOS name; links are never shown. */
	assert_non_null(strstr(list, "LOGIN|"));
	assert_non_null(strstr(list, "Quarterly Report 2026.txt|"));
	assert_non_null(strstr(list, "My Documents|"));
	assert_non_null(strstr(list, "short.txt|"));
	assert_null(strstr(list, "Link"));
	rep = info(s, LONG, DOS, 2,
		   (const char *[]){ "SYS", "Quarterly Report 2026.txt" });
	name_of(rep + 8, alias);
	search_all(s, DOS, NULL, "\xFF*", list);
	assert_non_null(strstr(list, alias));
	assert_non_null(strstr(list, "SHORT.TXT|"));
	assert_null(strstr(list, "Quarterly"));
	/* Patterns: LONG ones ignore case; DOS ones are DOS wildcards. */
	search_all(s, LONG, NULL, "\xFF*report\xFF*", list);
	assert_string_equal(list, "Quarterly Report 2026.txt|");
	search_all(s, DOS, NULL, "\xFF*.TXT", list);
	assert_non_null(strstr(list, "SHORT.TXT|"));
	assert_null(strstr(list, "LOGIN"));
	search_all(s, LONG, "My Documents", "\xFF*", list);
	assert_string_equal(list, "Letter to Anna.doc|");
}

/* 0x14, search for a set (Linux's kernel ncpfs lists with it): as many
 * entries as asked and fit, a more flag, and the sequence to go on. */
static void search_set(void **state)
{
	struct ns *s = *state;
	struct req q = { .n = 0 };
	const uint8_t *rep;
	uint8_t seq[9];
	char all[2000], part[2000] = "", name[300];
	size_t at;

	search_all(s, LONG, NULL, "\xFF*", all);
	u8(&q, 0x02); u8(&q, LONG); u8(&q, 0);
	hpath(&q, 0, 0, 0xFF, 1, (const char *[]){ "SYS" });
	rep = call(s, &q);
	memcpy(seq, rep + 8, 9);
	for (int round = 0;; round++) {
		assert_true(round < 10);
		q.n = 0;
		u8(&q, 0x14); u8(&q, LONG); u8(&q, 0); le16(&q, 0x8006);
		le32(&q, RIM_ALL); le16(&q, 2);
		memcpy(q.b + q.n, seq, 9);
		q.n += 9;
		comp(&q, "\xFF*");
		rep = call(s, &q);
		if (rep[6] == 0xFF)
			break;
		assert_int_equal(rep[6], 0);
		memcpy(seq, rep + 8, 9);
		at = 8 + 12;
		for (unsigned k = 0; k < ipx_get16le(rep + 18); k++) {
			name_of(rep + at, name);
			strcat(part, name);
			strcat(part, "|");
			at += 77 + rep[at + 76];
		}
		assert_int_equal(at, s->len);
		if (rep[17] == 0)	/* no more */
			break;
		assert_int_equal(ipx_get16le(rep + 18), 2);
	}
	assert_string_equal(part, all);
	/* All at once: the count as large as asked (32767) allows. */
	q.n = 0;
	u8(&q, 0x14); u8(&q, LONG); u8(&q, 0); le16(&q, 0x8006);
	le32(&q, RIM_ALL); le16(&q, 32767);
	u8(&q, 0); le32(&q, get32le(seq + 1)); le32(&q, 0xFFFFFFFF);
	comp(&q, "\xFF*");
	rep = call(s, &q);
	assert_int_equal(rep[6], 0);
	assert_int_equal(rep[17], 0);
	{
		unsigned bars = 0;

		for (const char *c = all; *c; c++)
			bars += *c == '|';
		assert_int_equal(ipx_get16le(rep + 18), bars);
		assert_true(bars >= 4);
	}
}

static void rename_delete_modify(void **state)
{
	struct ns *s = *state;
	struct req q = { .n = 0 };
	char p[800];
	struct stat st;
	const uint8_t *rep;

	/* 0x04: source and destination fixed parts, then their names. */
	u8(&q, 0x04); u8(&q, LONG); u8(&q, 1); le16(&q, 0x8006);
	u8(&q, 0); le32(&q, 0); u8(&q, 0xFF); u8(&q, 2);
	u8(&q, 0); le32(&q, 0); u8(&q, 0xFF); u8(&q, 3);
	comp(&q, "SYS"); comp(&q, "Quarterly Report 2026.txt");
	comp(&q, "SYS"); comp(&q, "My Documents"); comp(&q, "Annual Report.txt");
	assert_int_equal(call(s, &q)[6], 0);
	snprintf(p, sizeof(p), "%s/My Documents/Annual Report.txt", s->r->sys);
	assert_int_equal(stat(p, &st), 0);
	/* Again: the source is gone (0xFF); over an existing name: 0x92. */
	assert_int_equal(call(s, &q)[6], 0xFF);
	q.n = 0;
	u8(&q, 0x04); u8(&q, LONG); u8(&q, 1); le16(&q, 0x8006);
	u8(&q, 0); le32(&q, 0); u8(&q, 0xFF); u8(&q, 2);
	u8(&q, 0); le32(&q, 0); u8(&q, 0xFF); u8(&q, 2);
	comp(&q, "SYS"); comp(&q, "short.txt");
	comp(&q, "SYS"); comp(&q, "My Documents");
	assert_int_equal(call(s, &q)[6], 0x92);
	/* 0x07: read-only attribute and a modify date (2001-02-03 04:05:06). */
	q.n = 0;
	u8(&q, 0x07); u8(&q, LONG); u8(&q, 0); le16(&q, 0x8006);
	le32(&q, 0x0002 | 0x0100 | 0x0200);
	le32(&q, 0x01);				/* attributes */
	le16(&q, 0); le16(&q, 0); le32(&q, 0);	/* created */
	le16(&q, (21 << 9) | (2 << 5) | 3);	/* modified date */
	le16(&q, (4 << 11) | (5 << 5) | 3);	/* modified time */
	for (int i = 0; i < 22; i++)
		u8(&q, 0);
	hpath(&q, 0, 0, 0xFF, 3, (const char *[]){ "SYS", "My Documents",
						   "Annual Report.txt" });
	assert_int_equal(call(s, &q)[6], 0);
	assert_int_equal(stat(p, &st), 0);
	assert_int_equal(st.st_mode & 0222, 0);
	{
		struct tm tm;

		localtime_r(&st.st_mtime, &tm);
		assert_int_equal(tm.tm_year, 101);
		assert_int_equal(tm.tm_hour, 4);
		assert_int_equal(tm.tm_sec, 6);
	}
	/* 0x08: the read-only file is kept (0x90); a directory not empty
	 * 0x9F; SYS:LOGIN never (0x9F, counted); an empty one goes. */
	q.n = 0;
	u8(&q, 0x08); u8(&q, LONG); u8(&q, 0); le16(&q, 0x8006);
	hpath(&q, 0, 0, 0xFF, 3, (const char *[]){ "SYS", "My Documents",
						   "Annual Report.txt" });
	assert_int_equal(call(s, &q)[6], 0x90);
	chmod(p, 0644);
	assert_int_equal(call(s, &q)[6], 0);
	assert_int_equal(stat(p, &st), -1);
	q.n = 0;
	u8(&q, 0x08); u8(&q, LONG); u8(&q, 0); le16(&q, 0x8006);
	hpath(&q, 0, 0, 0xFF, 2, (const char *[]){ "SYS", "My Documents" });
	assert_int_equal(call(s, &q)[6], 0x9F);
	q.n = 0;
	u8(&q, 0x08); u8(&q, DOS); u8(&q, 0); le16(&q, 0x8006);
	hpath(&q, 0, 0, 0xFF, 2, (const char *[]){ "SYS", "LOGIN" });
	uint64_t before = refused(s, NCP_SRV_REF_LOGIN_DIR);
	assert_int_equal(call(s, &q)[6], 0x9F);
	assert_int_equal(refused(s, NCP_SRV_REF_LOGIN_DIR), before + 1);
	rep = open_create(s, LONG, 0x08, 0x10, 0, 2,
			  (const char *[]){ "SYS", "Empty One" });
	assert_int_equal(rep[6], 0);
	q.n = 0;
	u8(&q, 0x08); u8(&q, LONG); u8(&q, 0); le16(&q, 0x8006);
	hpath(&q, 0, 0, 0xFF, 2, (const char *[]){ "SYS", "Empty One" });
	assert_int_equal(call(s, &q)[6], 0);
}

static void handles_and_bases(void **state)
{
	struct ns *s = *state;
	struct req q = { .n = 0 };
	const uint8_t *rep;
	char name[300];
	uint8_t dh;
	uint32_t base;
	size_t n;

	/* 0x0C: a short handle on "My Documents", then used by style 0. */
	u8(&q, 0x0C); u8(&q, LONG); u8(&q, 0); le16(&q, 1);
	hpath(&q, 0, 0, 0xFF, 2, (const char *[]){ "SYS", "My Documents" });
	rep = call(s, &q);
	assert_int_equal(rep[6], 0);
	assert_int_equal(s->len, 8 + 6);
	dh = rep[8];
	assert_int_equal(rep[9], 0);
	q.n = 0;
	u8(&q, 0x06); u8(&q, LONG); u8(&q, LONG); le16(&q, 0x8006);
	le32(&q, RIM_ALL);
	hpath(&q, 0, dh, 0, 1, (const char *[]){ "letter to anna.doc" });
	rep = call(s, &q);
	assert_int_equal(rep[6], 0);
	name_of(rep + 8, name);
	assert_string_equal(name, "Letter to Anna.doc");
	/* The handle's path in DOS names (0x16 0x01). */
	rep = rawconn_call(s->r, s->b, 0x16, (uint8_t[]){ 0, 2, 0x01, dh }, 4,
			   &n);
	assert_int_equal(rep[6], 0);
	assert_memory_equal(rep + 9, "SYS:MY", 6);
	assert_non_null(memchr(rep + 9, '~', rep[8]));
	/* 0x16 on the directory, then 0x06 by base and name. */
	q.n = 0;
	u8(&q, 0x16); u8(&q, LONG); u8(&q, LONG); u8(&q, 0); u8(&q, 0);
	hpath(&q, 0, 0, 0xFF, 2, (const char *[]){ "SYS", "My Documents" });
	rep = call(s, &q);
	assert_int_equal(rep[6], 0);
	base = get32le(rep + 8);
	q.n = 0;
	u8(&q, 0x06); u8(&q, LONG); u8(&q, DOS); le16(&q, 0x8006);
	le32(&q, RIM_ALL);
	hpath(&q, 0, base, 1, 1, (const char *[]){ "Letter to Anna.doc" });
	rep = call(s, &q);
	assert_int_equal(rep[6], 0);
	name_of(rep + 8, name);
	assert_memory_equal(name, "LE", 2);
	/* 0x1C: the full path, from the entry up to the volume, in the
	 * destination name space. */
	q.n = 0;
	u8(&q, 0x1C); u8(&q, LONG); u8(&q, LONG); le16(&q, 0);
	le32(&q, 0xFFFFFFFF); le32(&q, 0xFFFFFFFF);
	hpath(&q, 0, base, 1, 1, (const char *[]){ "letter to anna.doc" });
	rep = call(s, &q);
	assert_int_equal(rep[6], 0);
	assert_int_equal(ipx_get16le(rep + 8), 1);		/* a file */
	assert_int_equal(get32le(rep + 14), 0xFFFFFFFF);	/* complete */
	assert_int_equal(ipx_get16le(rep + 20), 3);
	assert_int_equal(ipx_get16le(rep + 18), s->len - 22);
	assert_memory_equal(rep + 22, "\x12Letter to Anna.doc\x0cMy Documents"
			    "\x03SYS", 19 + 13 + 4);
	q.b[2] = DOS;
	rep = call(s, &q);
	assert_int_equal(rep[6], 0);
	assert_int_equal(rep[22], 12);
	assert_memory_equal(rep + 23, "LE", 2);
	/* 0x1D: the rights first, then the info. */
	q.n = 0;
	u8(&q, 0x1D); u8(&q, LONG); u8(&q, DOS); le16(&q, 0x8006);
	le32(&q, RIM_ALL);
	hpath(&q, 0, base, 1, 1, (const char *[]){ "Letter to Anna.doc" });
	rep = call(s, &q);
	assert_int_equal(rep[6], 0);
	assert_int_equal(ipx_get16le(rep + 8), 0xFF);
}

static void refusals(void **state)
{
	struct ns *s = *state;
	struct req q = { .n = 0 };
	uint64_t before;

	/* A name space not loaded (NFS 2, MAC 1): 0xBF, counted. */
	before = refused(s, NCP_SRV_REF_NAME_SPACE);
	assert_int_equal(info(s, 2, DOS, 1, (const char *[]){ "SYS" })[6], 0xBF);
	assert_int_equal(info(s, DOS, 1, 1, (const char *[]){ "SYS" })[6], 0xBF);
	assert_int_equal(refused(s, NCP_SRV_REF_NAME_SPACE), before + 2);
	/* A long name in the DOS name space: 0x9C, counted. */
	assert_int_equal(info(s, DOS, DOS, 2, (const char *[]){
		"SYS", "Quarterly Report 2026.txt" })[6], 0x9C);
	assert_int_equal(info(s, DOS, DOS, 3, (const char *[]){
		"SYS", "My Documents", "X" })[6], 0x9C);
	assert_int_equal(refused(s, NCP_SRV_REF_NAME_SPACE), before + 4);
	/* A LONG name of bytes no name has: 0x9C. */
	before = refused(s, NCP_SRV_REF_BAD_BYTES);
	assert_int_equal(info(s, LONG, LONG, 2,
			      (const char *[]){ "SYS", "a*b" })[6], 0x9C);
	assert_int_equal(refused(s, NCP_SRV_REF_BAD_BYTES), before + 1);
	/* A short directory handle not in use, a base never given out, a
	 * style that is none of 0, 1, 0xFF. */
	before = refused(s, NCP_SRV_REF_BAD_DIR_HANDLE);
	u8(&q, 0x06); u8(&q, LONG); u8(&q, LONG); le16(&q, 0x8006);
	le32(&q, RIM_ALL);
	hpath(&q, 0, 9, 0, 0, NULL);
	assert_int_equal(call(s, &q)[6], 0x9B);
	assert_int_equal(refused(s, NCP_SRV_REF_BAD_DIR_HANDLE), before + 1);
	before = refused(s, NCP_SRV_REF_BAD_DIR_BASE);
	q.n = 0;
	u8(&q, 0x06); u8(&q, LONG); u8(&q, LONG); le16(&q, 0x8006);
	le32(&q, RIM_ALL);
	hpath(&q, 0, 0x7FFFFFF1, 1, 0, NULL);
	assert_int_equal(call(s, &q)[6], 0x9B);
	q.b[14] = 7;	/* the style byte */
	assert_int_equal(call(s, &q)[6], 0x9C);
	assert_int_equal(refused(s, NCP_SRV_REF_BAD_DIR_BASE), before + 2);
	/* Short requests: 0xFF, counted; an unknown subfunction: 0xFB. */
	before = refused(s, NCP_SRV_REF_MALFORMED);
	q.n = 5;
	assert_int_equal(call(s, &q)[6], 0xFF);
	q.n = 1;
	assert_int_equal(call(s, &q)[6], 0xFF);
	assert_int_equal(refused(s, NCP_SRV_REF_MALFORMED), before + 2);
	q.n = 0;
	u8(&q, 0x33); u8(&q, 0);
	assert_int_equal(call(s, &q)[6], 0xFB);
	/* Changes on the read-only DATA volume. */
	q.n = 0;
	u8(&q, 0x01); u8(&q, LONG); u8(&q, 0x0B); le16(&q, 0x8006);
	le32(&q, RIM_ALL); le32(&q, 0); le16(&q, 3);
	hpath(&q, 0, 0, 0xFF, 2, (const char *[]){ "DATA", "New File" });
	assert_int_equal(call(s, &q)[6], 0x84);
}

/* The escape tests of test_ncp_safety.c, through the LONG name space. */
static void confinement(void **state)
{
	struct ns *s = *state;
	struct req q = { .n = 0 };
	struct rawconn *anon;
	uint64_t before;
	char p[800];

	/* ".." above the root: as a 0-length component, as "..", and
	 * inside one component. */
	before = refused(s, NCP_SRV_REF_ABOVE_ROOT);
	assert_int_equal(info(s, LONG, LONG, 2,
			      (const char *[]){ "SYS", "" })[6], 0x9C);
	assert_int_equal(info(s, LONG, LONG, 3, (const char *[]){
		"SYS", "..", "outside" })[6], 0x9C);
	assert_int_equal(info(s, LONG, LONG, 2, (const char *[]){
		"SYS", "My Documents\\..\\..\\outside" })[6], 0x9C);
	assert_int_equal(info(s, LONG, LONG, 1, (const char *[]){
		"SYS:../outside/SECRET.TXT" })[6], 0x9C);
	assert_int_equal(refused(s, NCP_SRV_REF_ABOVE_ROOT), before + 4);
	/* ".." inside stays inside. */
	assert_int_equal(info(s, LONG, LONG, 2, (const char *[]){
		"SYS", "My Documents/../short.txt" })[6], 0);
	/* Symbolic links, to a directory and to a file: never followed. */
	before = refused(s, NCP_SRV_REF_SYMLINK);
	assert_int_equal(info(s, LONG, LONG, 3, (const char *[]){
		"SYS", "Link Out", "SECRET.TXT" })[6], 0x9C);
	assert_int_equal(info(s, LONG, LONG, 2, (const char *[]){
		"SYS", "Secret Link.txt" })[6], 0x9C);
	assert_int_equal(open_create(s, LONG, 0x0B, 0, 3, 2, (const char *[]){
		"SYS", "Secret Link.txt" })[6], 0x9C);
	assert_int_equal(open_create(s, LONG, 0x0B, 0, 3, 3, (const char *[]){
		"SYS", "Link Out", "new.txt" })[6], 0x9C);
	assert_true(refused(s, NCP_SRV_REF_SYMLINK) >= before + 4);
	snprintf(p, sizeof(p), "%s/new.txt", s->r->outside);
	assert_int_equal(access(p, F_OK), -1);
	/* Delete and rename of a link: refused, the link kept. */
	u8(&q, 0x08); u8(&q, LONG); u8(&q, 0); le16(&q, 0x8006);
	hpath(&q, 0, 0, 0xFF, 2, (const char *[]){ "SYS", "Secret Link.txt" });
	assert_int_equal(call(s, &q)[6], 0x9C);
	snprintf(p, sizeof(p), "%s/Secret Link.txt", s->r->sys);
	assert_int_equal(access(p, F_OK), 0);
	/* A volume prefix inside a later component: 0x9C, counted. */
	before = refused(s, NCP_SRV_REF_NO_VOLUME);
	assert_int_equal(info(s, LONG, LONG, 2, (const char *[]){
		"SYS", "DATA:x" })[6], 0x9C);
	assert_int_equal(refused(s, NCP_SRV_REF_NO_VOLUME), before + 1);
	/* Deeper than 16 levels: 0x9C, counted. */
	{
		const char *deep[20];

		deep[0] = "SYS";
		for (int i = 1; i < 20; i++)
			deep[i] = "d";
		size_t k = (size_t)snprintf(p, sizeof(p), "%s", s->r->sys);

		for (int i = 1; i < 20; i++) {
			k += (size_t)snprintf(p + k, sizeof(p) - k, "/d");
			assert_int_equal(mkdir(p, 0755), 0);
		}
		before = refused(s, NCP_SRV_REF_OVERLONG);
		assert_int_equal(info(s, LONG, LONG, 20, deep)[6], 0x9C);
		assert_int_equal(refused(s, NCP_SRV_REF_OVERLONG), before + 1);
	}
	/* Before login: SYS:LOGIN only (and the root on the way). */
	anon = rawconn_open(s->r, false);
	{
		struct rawconn *keep = s->b;

		s->b = anon;
		before = refused(s, NCP_SRV_REF_LOGIN_ONLY);
		assert_int_equal(info(s, LONG, LONG, 2, (const char *[]){
			"SYS", "short.txt" })[6], 0x9C);
		assert_int_equal(open_create(s, LONG, 0x0B, 0, 3, 2,
			(const char *[]){ "SYS", "Dropped.txt" })[6], 0x9C);
		assert_int_equal(refused(s, NCP_SRV_REF_LOGIN_ONLY),
				 before + 2);
		assert_int_equal(info(s, LONG, LONG, 2, (const char *[]){
			"SYS", "login" })[6], 0);
		s->b = keep;
	}
	rawconn_close(anon);
	snprintf(p, sizeof(p), "%s/Dropped.txt", s->r->sys);
	assert_int_equal(access(p, F_OK), -1);
}

static int collect_names(const struct ncp_entry *e, void *ctx)
{
	strcat(ctx, e->name);
	strcat(ctx, "|");
	return 0;
}

/* The client library on a server with the LONG name space: long names
 * with spaces and any case through open, list, stat, rename, erase,
 * mkdir, rmdir; and the escapes refused through it too. */
static void client_long_names(void **state)
{
	struct ns *s = *state;
	struct ncp_client *cl = ncprig_login_long(s->r, "GUEST", "");
	struct ncp_fh fh;
	struct ncp_entry e;
	char list[2000] = "", p[800], buf[32];
	size_t got;

	assert_true(ncp_long_names(cl));
	assert_int_equal(ncp_check_path_on(cl, "SYS:A Long Name.txt"), 0);
	assert_int_equal(ncp_open(cl, "SYS:Quarterly Report 2026.txt",
				  NCP_OPEN_READ, &fh), 0);
	assert_int_equal(fh.size, 7);
	assert_int_equal(ncp_read(cl, &fh, 0, buf, sizeof(buf), &got), 0);
	assert_int_equal(got, 7);
	assert_memory_equal(buf, "report\n", 7);
	assert_int_equal(ncp_close(cl, &fh), 0);
	assert_int_equal(ncp_open(cl, "SYS:My Documents\\New Budget 2027.xlsx",
				  NCP_OPEN_CREATE_DENY_WRITE, &fh), 0);
	assert_int_equal(ncp_write(cl, &fh, 0, "budget", 6), 0);
	assert_int_equal(ncp_close(cl, &fh), 0);
	snprintf(p, sizeof(p), "%s/My Documents/New Budget 2027.xlsx",
		 s->r->sys);
	assert_int_equal(access(p, F_OK), 0);
	assert_int_equal(ncp_open(cl, "SYS:My Documents\\New Budget 2027.xlsx",
				  NCP_OPEN_CREATE_NEW, &fh), NCP_CC_NAME_EXISTS);
	assert_int_equal(ncp_list(cl, "SYS:", NULL, collect_names, list), 0);
	assert_non_null(strstr(list, "Quarterly Report 2026.txt|"));
	assert_non_null(strstr(list, "My Documents|"));
	assert_non_null(strstr(list, "short.txt|"));
	assert_non_null(strstr(list, "LOGIN|"));
	list[0] = '\0';
	assert_int_equal(ncp_list(cl, "SYS:My Documents", "*.doc",
				  collect_names, list), 0);
	assert_string_equal(list, "Letter to Anna.doc|");
	assert_int_equal(ncp_stat(cl, "SYS:my documents\\LETTER TO ANNA.DOC",
				  &e), 0);
	assert_string_equal(e.name, "Letter to Anna.doc");
	assert_int_equal(e.size, 7);
	assert_int_equal(ncp_stat(cl, "SYS:My Documents", &e), 0);
	assert_true(e.attr & NCP_ATTR_DIRECTORY);
	assert_int_equal(ncp_stat(cl, "SYS:nope nope", &e), NCP_CC_FAILURE);
	assert_int_equal(ncp_rename(cl, "SYS:My Documents\\Letter to Anna.doc",
				    "SYS:My Documents\\Letter to Bob.doc"), 0);
	snprintf(p, sizeof(p), "%s/My Documents/Letter to Bob.doc", s->r->sys);
	assert_int_equal(access(p, F_OK), 0);
	assert_int_equal(ncp_erase(cl, "SYS:My Documents\\*.doc"), 0);
	assert_int_equal(access(p, F_OK), -1);
	assert_int_equal(ncp_erase(cl, "SYS:My Documents\\*.doc"),
			 NCP_CC_FAILURE);
	assert_int_equal(ncp_mkdir(cl, "SYS:Photos 2026"), 0);
	assert_int_equal(ncp_mkdir(cl, "SYS:Photos 2026"), NCP_CC_FAILURE);
	assert_int_equal(ncp_rmdir(cl, "SYS:Photos 2026"), 0);
	snprintf(p, sizeof(p), "%s/Photos 2026", s->r->sys);
	assert_int_equal(access(p, F_OK), -1);
	/* A rename over a name erased first (what the mount does), and a
	 * directory renamed (0x16 0x0F's library call, through 0x57 too). */
	assert_int_equal(ncp_open(cl, "SYS:My Documents\\c.txt",
				  NCP_OPEN_CREATE, &fh), 0);
	assert_int_equal(ncp_close(cl, &fh), 0);
	assert_int_equal(ncp_open(cl, "SYS:My Documents\\b.txt",
				  NCP_OPEN_CREATE, &fh), 0);
	assert_int_equal(ncp_close(cl, &fh), 0);
	assert_int_equal(ncp_erase(cl, "SYS:My Documents\\b.txt"), 0);
	assert_int_equal(ncp_rename(cl, "SYS:My Documents\\c.txt",
				    "SYS:My Documents\\b.txt"), 0);
	assert_int_equal(ncp_stat(cl, "SYS:My Documents\\b.txt", &e), 0);
	assert_string_equal(e.name, "b.txt");
	assert_int_equal(ncp_rename_dir(cl, "SYS:My Documents", "Old Papers"),
			 0);
	snprintf(p, sizeof(p), "%s/Old Papers/b.txt", s->r->sys);
	assert_int_equal(access(p, F_OK), 0);
	assert_int_equal(ncp_rename_dir(cl, "SYS:Old Papers", "My Documents"),
			 0);
	/* A new case of a name (the destination found is the source). */
	assert_int_equal(ncp_rename(cl, "SYS:My Documents\\b.txt",
				    "SYS:My Documents\\B.Txt"), 0);
	snprintf(p, sizeof(p), "%s/My Documents/B.Txt", s->r->sys);
	assert_int_equal(access(p, F_OK), 0);
	assert_int_equal(ncp_rename(cl, "SYS:My Documents\\B.Txt",
				    "SYS:My Documents\\b.txt"), 0);
	assert_int_equal(ncp_rename(cl, "SYS:My Documents\\b.txt",
				    "SYS:My Documents\\b.txt"), 0);
	/* Attributes (0x46's library call, through 0x57 0x07): read-only. */
	assert_int_equal(ncp_set_attributes(cl, "SYS:My Documents\\b.txt",
					    NCP_ATTR_READ_ONLY), 0);
	assert_int_equal(ncp_stat(cl, "SYS:My Documents\\b.txt", &e), 0);
	assert_true(e.attr & NCP_ATTR_READ_ONLY);
	assert_int_equal(ncp_set_attributes(cl, "SYS:My Documents\\b.txt", 0),
			 0);
	assert_int_equal(ncp_stat(cl, "SYS:My Documents\\b.txt", &e), 0);
	assert_false(e.attr & NCP_ATTR_READ_ONLY);
	/* The escapes, through the library's long names. */
	assert_int_equal(ncp_open(cl, "SYS:..\\outside\\SECRET.TXT",
				  NCP_OPEN_READ, &fh), NCP_CC_BAD_PATH);
	assert_int_equal(ncp_open(cl, "SYS:Link Out\\SECRET.TXT",
				  NCP_OPEN_READ, &fh), NCP_CC_BAD_PATH);
	assert_int_equal(ncp_open(cl, "SYS:Link Out\\x.txt",
				  NCP_OPEN_CREATE, &fh), NCP_CC_BAD_PATH);
	assert_int_equal(ncp_open(cl, "/etc/passwd", NCP_OPEN_READ, &fh),
			 NCP_CC_BAD_PATH);
	assert_int_equal(ncp_erase(cl, "SYS:Secret Link.txt"), NCP_CC_BAD_PATH);
	ncp_client_free(cl);
}

/* A server of the DOS name space only: the client stays with DOS names
 * (the aliases) and refuses long ones before asking. */
static void client_dos_only(void **state)
{
	struct ncp_server_opts o;
	struct ncprig *r;
	struct ncp_client *cl;
	char list[2000] = "";

	(void)state;
	ncprig_default_opts(&o);
	o.dos_only = true;
	r = ncprig_new(&o);
	cl = ncprig_login_long(r, "GUEST", "");
	assert_false(ncp_long_names(cl));
	assert_int_equal(ncp_check_path_on(cl, "SYS:A Long Name.txt"),
			 NCP_E_NOT83);
	assert_int_equal(ncp_list(cl, "SYS:", NULL, collect_names, list), 0);
	assert_string_equal(list, "LOGIN|");
	assert_int_equal(ncp_server_stats(r->srv)->unknown[0x57], 1);
	ncp_client_free(cl);
	ncprig_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(loaded_and_volume, setup,
						teardown),
		cmocka_unit_test_setup_teardown(long_and_alias, setup, teardown),
		cmocka_unit_test_setup_teardown(create_write_read, setup,
						teardown),
		cmocka_unit_test_setup_teardown(search, setup, teardown),
		cmocka_unit_test_setup_teardown(search_set, setup, teardown),
		cmocka_unit_test_setup_teardown(rename_delete_modify, setup,
						teardown),
		cmocka_unit_test_setup_teardown(handles_and_bases, setup,
						teardown),
		cmocka_unit_test_setup_teardown(refusals, setup, teardown),
		cmocka_unit_test_setup_teardown(confinement, setup, teardown),
		cmocka_unit_test_setup_teardown(client_long_names, setup,
						teardown),
		cmocka_unit_test(client_dos_only),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
