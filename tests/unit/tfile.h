/*
 * tfile.h - a test's small files: write a text into a scratch directory.
 */
#ifndef IPXLAB_TEST_TFILE_H
#define IPXLAB_TEST_TFILE_H

/* Write text to dir/name (replacing it); the test fails if it cannot. */
void tfile_put(const char *dir, const char *name, const char *text);

#endif
