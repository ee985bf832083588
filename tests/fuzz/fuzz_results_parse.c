/* fuzz_results_parse.c - libFuzzer harness: the reader of `npuzzle solve`'s output (text, json or
 * csv) that `npuzzle verify --results` uses, on arbitrary bytes.
 *
 * The input is split into lines, as verify reads them, and each line goes to
 * record_read_line in turn (the first non-blank line fixes the form). Every
 * line must come back as a record, as no record, or as malformed with a
 * message; a record read from a json line with a status, written again as
 * json and read back, must give the same fields. Any broken promise aborts. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(cond) \
    do { \
        if (!(cond)) { \
            fprintf(stderr, "fuzz_results_parse: check failed: %s (line %d)\n", #cond, __LINE__); \
            abort(); \
        } \
    } while (0)

static bool same_text(const char *a, const char *b)
{
    return (!a && !b) || (a && b && !strcmp(a, b));
}

/* r, written as json and read back by a fresh reader, reads the same. */
static void json_round_trip(const record *r)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    CHECK(f);
    record_writer w;
    record_writer_init(&w, f, RECORD_JSON);
    record again = *r;
    if (!again.id)
        again.id = "";
    if (!again.size)
        again.size = "";
    if (!again.moves)
        again.moves = "";
    record_write(&w, &again);
    CHECK(fclose(f) == 0);
    char *nl = strchr(text, '\n');
    if (nl)
        *nl = 0;
    record_reader rd;
    memset(&rd, 0, sizeof rd);
    record back;
    char msg[256] = "";
    int rc = record_read_line(&rd, text, &back, msg, sizeof msg);
    if (rc != 1)
        fprintf(stderr, "fuzz_results_parse: rewritten as '%s', read back %d (%s)\n", text, rc,
                msg);
    CHECK(rc == 1);
    CHECK(same_text(back.id, again.id));
    CHECK(back.status == again.status);
    CHECK(back.length == again.length);
    CHECK(same_text(back.moves, again.moves));
    record_reader_free(&rd);
    free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *buf = malloc(size + 1);
    if (!buf)
        return 0;
    memcpy(buf, data, size);
    buf[size] = 0;
    record_reader rd;
    memset(&rd, 0, sizeof rd);
    char *line = buf;
    while (line && line < buf + size) {
        char *nl = memchr(line, '\n', (size_t)(buf + size - line));
        if (nl)
            *nl = 0;
        /* a line as verify hands it over: its own copy, without the newline */
        char *copy = strdup(line);
        CHECK(copy);
        record r;
        char msg[256] = "";
        int rc = record_read_line(&rd, copy, &r, msg, sizeof msg);
        CHECK(rc == -1 || rc == 0 || rc == 1);
        if (rc == -1)
            CHECK(msg[0] != 0 && strlen(msg) < sizeof msg);
        if (rc == 1) {
            CHECK(rd.known);
            CHECK(r.length >= -1);
            /* (the writer's records always have a status) */
            if (rd.fmt == RECORD_JSON && r.status >= NP_STATUS_SOLVED &&
                r.status <= NP_STATUS_ERROR)
                json_round_trip(&r);
        }
        free(copy);
        line = nl ? nl + 1 : NULL;
    }
    record_reader_free(&rd);
    free(buf);
    return 0;
}
