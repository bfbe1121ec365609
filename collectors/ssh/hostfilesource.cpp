#include "hostfilesource.h"

#include "sshfilesource.h"
#include "sshtarget.h"

namespace Headroom {

using namespace Qt::StringLiterals;

std::unique_ptr<FileSource> hostFileSource(const QJsonObject &options, QString *error)
{
    const QString host = options.value("host"_L1).toString();
    if (!isSshUrl(host))
        return fileSourceFromOptions(options, error);
    if (!options.value("root"_L1).toString().isEmpty()) {
        if (error)
            *error = u"\"root\" is for local captured trees; it cannot be used with ssh://"_s;
        return nullptr;
    }
    const auto target = parseSshTarget(host, error);
    if (!target)
        return nullptr;
    return std::make_unique<SshFileSource>(SshConnection::shared(*target));
}

} // namespace Headroom
