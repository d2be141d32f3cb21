/* The library's version at run time, for bindings to compare with the headers. */
#include "daemonset.h"

const char *ds_version(void) { return DS_VERSION_STRING; }

int ds_version_number(void) { return DS_VERSION_HEX; }
