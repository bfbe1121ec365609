#include "hostlogging.h"
Q_LOGGING_CATEGORY(lcHost, "headroom.collectors.host", QtInfoMsg)
