/*
 * tfile.c - a test's small files (tfile.h).
 */
#include <stdio.h>

#include "cm.h"
#include "tfile.h"

void tfile_put(const char *dir, const char *name, const char *text)
{
	char path[600];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}
