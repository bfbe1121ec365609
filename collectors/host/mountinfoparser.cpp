// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "mountinfoparser.h"

#include "collector/procparseutil.h"

namespace Headroom {

using namespace Qt::StringLiterals;
using namespace ProcParse;

namespace {

// \ooo (three octal digits) back to its byte; anything else stays as it is.
QString unescaped(QByteArrayView field)
{
    QByteArray out;
    out.reserve(field.size());
    for (qsizetype i = 0; i < field.size(); ++i) {
        const char c = field[i];
        const auto octal = [&](qsizetype at) { return field[at] >= '0' && field[at] <= '7'; };
        if (c == '\\' && i + 3 < field.size() && octal(i + 1) && octal(i + 2) && octal(i + 3)) {
            out.append(char(((field[i + 1] - '0') << 6) | ((field[i + 2] - '0') << 3)
                            | (field[i + 3] - '0')));
            i += 3;
            continue;
        }
        out.append(c);
    }
    return QString::fromUtf8(out);
}

} // namespace

QList<MountEntry> parseMountInfo(QByteArrayView content, QStringList *problems)
{
    QList<MountEntry> mounts;
    forEachLine(content, [&](int number, QByteArrayView line) {
        const auto fields = splitFields(line);
        if (fields.isEmpty())
            return;
        // Optional fields end at a lone "-"; three fields follow it.
        qsizetype dash = -1;
        for (qsizetype i = 6; i < fields.size(); ++i) {
            if (fields[i] == "-") {
                dash = i;
                break;
            }
        }
        if (fields.size() < 6 || dash < 0 || dash + 2 >= fields.size()) {
            addProblem(problems, number, u"not a mountinfo line (%1 fields)"_s.arg(fields.size()));
            return;
        }
        const QByteArrayView device = fields[2];
        const qsizetype colon = device.indexOf(':');
        if (colon <= 0 || !toU64(device.first(colon)) || !toU64(device.sliced(colon + 1))) {
            addProblem(problems, number, u"bad device number %1"_s.arg(quoted(device)));
            return;
        }
        MountEntry mount;
        mount.device = QString::fromLatin1(device);
        mount.root = unescaped(fields[3]);
        mount.mountPoint = unescaped(fields[4]);
        mount.type = QString::fromUtf8(fields[dash + 1]);
        mount.source = unescaped(fields[dash + 2]);
        // The mount's own options ("rw,nosuid,relatime"): only "ro" matters here.
        const QByteArrayView options = fields[5];
        mount.readOnly = options == "ro" || options.startsWith("ro,");
        if (!mount.mountPoint.startsWith(u'/')) {
            addProblem(problems, number,
                       u"mount point %1 is not absolute"_s.arg(quoted(fields[4])));
            return;
        }
        mounts.append(mount);
    });
    return mounts;
}

} // namespace Headroom
