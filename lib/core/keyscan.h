/*
 * Where the keys of a JSON or YAML text are, and which of them repeat: what a strict decoder needs
 * that a parse tree has lost. The parsers (dsi_yaml_parse_observed, dsi_load_text_observed,
 * dsi_parse_one_observed) report mapping keys to an observer as they meet them; for JSON, which
 * jansson parses without positions, dsi_json_scan_keys reads them from the text.
 *
 * A key's path is its JSON path in the document as the API server's strict decoder prints it
 * (sigs.k8s.io/json): keys joined with '.', array elements as [i] ("spec.template.spec.
 * containers[0].image", "metadata.labels.app").
 */
#ifndef DSI_KEYSCAN_H
#define DSI_KEYSCAN_H

#include <stddef.h>

/* One mapping key as a parser met it. */
typedef struct dsi_keyinfo {
	size_t document;  /* 0-based document (YAML) or value (concatenated JSON) of the text */
	const char *path; /* the key's path, NUL-terminated, of len bytes */
	size_t len;
	size_t key;       /* the key is path[key, len); its map's path is path[0, key - 1) (or "" when key is 0) */
	int line, column; /* 1-based, of the key; column in characters */
	int duplicate;    /* the key repeats one already set in the same map (the later value replaces it) */
	int yaml;         /* the text is YAML */
} dsi_keyinfo;

typedef struct dsi_keyobs {
	/* Called for each key (or each repeated key); return 0, or DS_ENOMEM to stop. */
	int (*fn)(void *ctx, const dsi_keyinfo *k);
	void *ctx;
	int all_keys; /* 0: only repeated keys are reported */
} dsi_keyobs;

/*
 * Report the keys of the JSON value in text[start, end) (jansson has accepted it) to obs as
 * document number document. line and column are those of text[start]. Anything the scanner does
 * not expect ends the scan quietly. Returns 0 or DS_ENOMEM.
 */
int dsi_json_scan_keys(const char *text, size_t start, size_t end, int line, int column, size_t document,
		       const dsi_keyobs *obs);

/* Advance *line / *column over text[from, to) as the scanner counts them. */
void dsi_text_position(const char *text, size_t from, size_t to, int *line, int *column);

#endif
