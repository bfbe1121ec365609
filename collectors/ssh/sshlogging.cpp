#include "sshlogging.h"
Q_LOGGING_CATEGORY(lcSsh, "headroom.ssh", QtInfoMsg)
