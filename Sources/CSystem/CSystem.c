#include "CSystem.h"

int csystem_errno(void) { return errno; }
