#include "niclogging.h"
Q_LOGGING_CATEGORY(lcNic, "headroom.collectors.nic", QtInfoMsg)
