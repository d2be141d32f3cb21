/*
 * "Did you mean this?" as cobra offers it for a misspelt command (cobra's command.go, SuggestionsFor), used
 * by dsctl for commands, flags, resource types and the names of the loaded objects.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "dsctl.h"

/* cobra's ld (cobra.go): the Levenshtein distance of s and t, ignoring case. */
static size_t distance(const char *s, const char *t)
{
	size_t n = strlen(s), m = strlen(t);
	size_t *row = malloc((n + 1) * sizeof(*row));
	if (!row)
		return (size_t)-1;
	for (size_t i = 0; i <= n; i++)
		row[i] = i;
	for (size_t j = 1; j <= m; j++) {
		size_t diag = row[0];
		row[0] = j;
		for (size_t i = 1; i <= n; i++) {
			size_t up = row[i];
			if (tolower((unsigned char)s[i - 1]) == tolower((unsigned char)t[j - 1])) {
				row[i] = diag;
			} else {
				size_t best = row[i - 1] < up ? row[i - 1] : up;
				row[i] = (diag < best ? diag : best) + 1;
			}
			diag = up;
		}
	}
	size_t d = row[n];
	free(row);
	return d;
}

static int has_prefix_ci(const char *s, const char *prefix)
{
	for (; *prefix; s++, prefix++)
		if (tolower((unsigned char)*s) != tolower((unsigned char)*prefix))
			return 0;
	return 1;
}

/* cobra's SuggestionsFor (command.go): a candidate within Levenshtein distance 2 of typed, ignoring
 * case, or one that starts with typed (ignoring case). */
int suggestion_matches(const char *typed, const char *candidate)
{
	if (!typed || !*typed || !candidate || strcmp(typed, candidate) == 0)
		return 0;
	return distance(typed, candidate) <= 2 || has_prefix_ci(candidate, typed);
}

void suggestions_init(suggestions *s) { memset(s, 0, sizeof(*s)); }

void suggestions_push(suggestions *s, const char *candidate)
{
	for (size_t i = 0; i < s->n; i++)
		if (strcmp(s->items[i], candidate) == 0)
			return;
	if (s->n == DSCTL_SUGGESTIONS) {
		s->more++;
		return;
	}
	s->items[s->n] = strdup(candidate);
	if (s->items[s->n])
		s->n++;
}

void suggestions_add(suggestions *s, const char *typed, const char *candidate)
{
	if (suggestion_matches(typed, candidate))
		suggestions_push(s, candidate);
}

void suggestions_print(suggestions *s, FILE *f)
{
	if (s->n) {
		/* cobra's findSuggestions, after the error */
		fputs("\nDid you mean this?\n", f);
		for (size_t i = 0; i < s->n; i++)
			fprintf(f, "\t%s\n", s->items[i]);
		if (s->more)
			fprintf(f, "\t(and %zu more)\n", s->more);
	}
	for (size_t i = 0; i < s->n; i++)
		free(s->items[i]);
	s->n = s->more = 0;
}
