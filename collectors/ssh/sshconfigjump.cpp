// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "sshconfigjump.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>

namespace Headroom {

using namespace Qt::StringLiterals;

namespace {

// As deep as libssh follows Include.
constexpr int MaxDepth = 16;

bool mayJump(const QString &path, const QString &sshDir, int depth);

// The files an Include argument names: "~/" is the home folder, a relative path is
// under ~/.ssh, and the file name part may be a glob (config.d/*).
bool includedMayJump(QString argument, const QString &sshDir, int depth)
{
    if (argument.startsWith("~/"_L1))
        argument = QDir::homePath() + argument.mid(1);
    else if (!QDir::isAbsolutePath(argument))
        argument = sshDir + u'/' + argument;
    const QFileInfo pattern(argument);
    const QString directory = pattern.path();
    if (directory.contains(u'*') || directory.contains(u'?') || directory.contains(u'['))
        return true;
    const QStringList names
        = QDir(directory).entryList({ pattern.fileName() }, QDir::Files | QDir::Hidden, QDir::Name);
    for (const QString &name : names)
        if (mayJump(directory + u'/' + name, sshDir, depth + 1))
            return true;
    return false;
}

bool mayJump(const QString &path, const QString &sshDir, int depth)
{
    if (depth > MaxDepth)
        return true;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return false;
    // "Keyword arguments" or "Keyword=arguments"; keywords are case-insensitive.
    static const QRegularExpression line(u"^\\s*([A-Za-z]+)\\s*[=\\s]\\s*(.*?)\\s*$"_s);
    static const QRegularExpression spaces(u"\\s+"_s);
    while (!file.atEnd()) {
        const QRegularExpressionMatch m = line.match(QString::fromUtf8(file.readLine()));
        if (!m.hasMatch())
            continue;
        const QString keyword = m.captured(1).toLower();
        if (keyword == "proxyjump"_L1)
            return true;
        if (keyword != "include"_L1)
            continue;
        for (const auto allArguments = m.captured(2).split(spaces, Qt::SkipEmptyParts);
             const QString &argument : allArguments)
            if (includedMayJump(argument, sshDir, depth))
                return true;
    }
    return false;
}

} // namespace

bool sshConfigMayJump(const QString &configPath)
{
    return mayJump(configPath, QFileInfo(configPath).path(), 0);
}

} // namespace Headroom
