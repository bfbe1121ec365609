#include "document/shardtableoptions.h"

namespace Headroom {

using namespace Qt::StringLiterals;

QStringList shardColumnNames()
{
    return { u"set"_s, u"shard"_s, u"load"_s, u"ops"_s, u"previous"_s, u"share"_s, u"change"_s };
}

} // namespace Headroom
