/*
 * dsctl: a JSON value as YAML, written with libyaml's emitter and quoted as
 * kubectl -o yaml quotes (sigs.k8s.io/yaml on go-yaml v2). See yamlout.c.
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef DSCTL_YAMLOUT_H
#define DSCTL_YAMLOUT_H

#include <jansson.h>
#include <stdio.h>

/* Write v as one YAML document (no "---" before it) to out: block style, object keys in v's order.
 * Returns 0, or -1 when libyaml fails (the reason on stderr). */
int yamlout_write(FILE *out, const json_t *v);

/* The scalar text of a JSON real as kubectl prints it (see yamlout.c); buf needs 32 bytes. */
void yamlout_real(double v, char buf[32]);

#endif
