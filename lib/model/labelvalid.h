/*
 * Label keys and values and DNS-1123 names, with upstream's rules and its
 * exact messages, plus the Go renderings those messages embed (strconv.Quote
 * and encoding/json strings) so that field errors read as upstream's.
 *
 * Messages are those of Kubernetes 1.35 and later (apimachinery
 * pkg/api/validate/content): lengths are "bytes" for label keys and values
 * (1.34 and earlier said "characters" and "a qualified name").
 */
#ifndef DSI_LABELVALID_H
#define DSI_LABELVALID_H

#include <stddef.h>

#include "core/gostr.h"
#include "core/strbuf.h"

/*
 * Each validator returns the number of problems (0: valid) and, when msgs is
 * not NULL, appends upstream's messages to it, separated by "; " from each
 * other and from what msgs already holds (as upstream joins them).
 */
/* content.IsLabelKey, alias validation.IsQualifiedName: [prefix/]name */
int dsi_validate_label_key(const char *k, size_t n, dsi_strbuf *msgs);
/* content.IsLabelValue, alias validation.IsValidLabelValue */
int dsi_validate_label_value(const char *v, size_t n, dsi_strbuf *msgs);
/* validation.IsDNS1123Subdomain (object names: at most 253 characters) */
int dsi_validate_dns1123_subdomain(const char *s, size_t n, dsi_strbuf *msgs);
/* validation.IsDNS1123Label (at most 63 characters, no dots) */
int dsi_validate_dns1123_label(const char *s, size_t n, dsi_strbuf *msgs);

#endif
