/*
 * The argument checks every public wrapper opens with, in one shape (as libgit2's GIT_ASSERT_ARG): each
 * macro returns DS_EARG from the calling function, with a message that names the arguments at fault as
 * the function's page names them. The names are the macro's arguments, stringified.
 */
#ifndef DSI_API_ARGS_H
#define DSI_API_ARGS_H

#include <stddef.h>

#include "core/error.h"
#include "core/sized.h"

/* "<a>, <b> and <c> must not be NULL" for those of the n pointers v that are NULL, names their
 * comma-separated names; 0 when none is. */
int dsi_args_nonnull(ds_error *err, const char *names, const void *const *v, size_t n);

/* Every argument must not be NULL. */
#define DSI_ARGS_NONNULL(err, ...)                                                                                     \
	do {                                                                                                           \
		const void *const dsi_args_[] = {__VA_ARGS__};                                                         \
		int dsi_args_rc_ =                                                                                     \
			dsi_args_nonnull((err), #__VA_ARGS__, dsi_args_, sizeof(dsi_args_) / sizeof(dsi_args_[0]));    \
		if (dsi_args_rc_ < 0)                                                                                  \
			return dsi_args_rc_;                                                                           \
	} while (0)

/* A document (text, size): text may be NULL only with size 0 (daemonset(7), CONVENTIONS). */
#define DSI_ARG_DOC(err, text, size)                                                                                   \
	do {                                                                                                           \
		if (!(text) && (size))                                                                                 \
			return dsi_error_set((err), DS_EARG, NULL, "%s must not be NULL when %s > 0", #text, #size);   \
	} while (0)

/* A name that must be neither NULL nor empty. */
#define DSI_ARG_NAME(err, name)                                                                                        \
	do {                                                                                                           \
		if (!(name) || !*(name))                                                                               \
			return dsi_error_set((err), DS_EARG, NULL, "%s must not be NULL or empty", #name);             \
	} while (0)

/* A size-versioned struct (p of type T) whose size covers member at least. */
#define DSI_ARG_SIZED(err, p, T, member)                                                                               \
	do {                                                                                                           \
		if (!(p) || !DSI_SIZE_COVERS((p), T, member))                                                          \
			return dsi_error_set((err), DS_EARG, NULL, "%s must not be NULL; set %s->size", #p, #p);       \
	} while (0)

#endif
