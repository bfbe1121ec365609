// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "remotereadbatch.h"

#include <QRandomGenerator>
#include <QSet>
#include <QtNumeric>
#include <optional>

namespace Headroom {

using namespace Qt::StringLiterals;

namespace {

// Single quotes keep every byte as it is, except the quote itself.
QByteArray shellQuoted(const QString &text)
{
    QByteArray quoted = text.toUtf8();
    quoted.replace('\'', "'\\''");
    return '\'' + quoted + '\'';
}

QByteArray quotedList(const QStringList &items)
{
    QByteArray list;
    for (const QString &item : items)
        list += ' ' + shellQuoted(item);
    return list;
}

// The reason in a failed item's text: what follows the last ": " of its last line
// ("cat: /x: No such file or directory", "sh: 1: cannot open /x: No such file").
QString reasonIn(const QByteArray &text)
{
    const QByteArray trimmed = text.trimmed();
    const QByteArray line = trimmed.mid(trimmed.lastIndexOf('\n') + 1);
    const qsizetype at = line.lastIndexOf(": ");
    const QByteArray reason = at < 0 ? QByteArray() : line.mid(at + 2).trimmed();
    return reason.isEmpty() ? u"cannot be read"_s : QString::fromUtf8(reason.left(200));
}

} // namespace

QByteArray newBatchBoundary()
{
    quint32 words[4];
    QRandomGenerator::system()->fillRange(words);
    return QByteArray(reinterpret_cast<const char *>(words), sizeof(words)).toHex();
}

namespace {

// "/proc/1234/stat": the pid, else 0.
qint64 processStatPid(const QString &path)
{
    // "/proc/" + at least one digit + "/stat"
    if (path.size() < 12 || !path.startsWith("/proc/"_L1) || !path.endsWith("/stat"_L1))
        return 0;
    const QStringView digits = QStringView(path).sliced(6, path.size() - 11);
    if (digits.isEmpty() || digits.size() > 10)
        return 0;
    for (const QChar c : digits)
        if (c < u'0' || c > u'9')
            return 0;
    return digits.toLongLong();
}

} // namespace

QByteArray remoteReadScript(const RemoteReadBatch &batch, const QByteArray &boundary)
{
    // LC_ALL=C: messages in English and ls in byte order. 2>&1: a tool's message lands
    // in the item it belongs to. The newline before each header keeps the header on its
    // own line after a file without a final newline; the parser takes it back off.
    // read -r fails on an empty or unreadable file, or one without a final newline
    // (then v holds that last line): each case is told apart below.
    // Files of /proc/PID other than stat and statm are read line by line (a last line
    // without a newline would be lost; the kernel ends every line of them).
    QByteArray script = "{ LC_ALL=C; export LC_ALL; B=" + boundary + ";";
    // The processes' stat files, one line each that starts with its pid, by one cat (a
    // host of thousands of processes: a poll reads hundreds); one that is gone (the
    // process exited) is simply not in the answer.
    QStringList others;
    QStringList stats;
    for (const QString &path : batch.files)
        (processStatPid(path) > 0 ? stats : others) << path;
    if (!stats.isEmpty())
        script += " printf '\\n%s P -\\n' \"$B\"; cat --" + quotedList(stats) + " 2>/dev/null;";
    if (!others.isEmpty()) {
        script += " for f in" + quotedList(others)
            + "; do printf '\\n%s F %s\\n' \"$B\" \"$f\"; case $f in"
              " /sys/*|/proc/[0-9]*/statm)"
              " v=; if IFS= read -r v < \"$f\"; then printf '%s\\n' \"$v\";"
              " elif [ -n \"$v\" ]; then printf '%s' \"$v\";"
              " else printf '\\n%s E %s\\n' \"$B\" \"$f\"; fi;;"
              " /proc/[0-9]*/*) { while IFS= read -r v; do printf '%s\\n' \"$v\"; done; }"
              " < \"$f\" || printf '\\n%s E %s\\n' \"$B\" \"$f\";;"
              " *) cat -- \"$f\" || printf '\\n%s E %s\\n' \"$B\" \"$f\";; esac; done;";
    }
    // A glob that matches nothing stays as it is: then the directory is empty.
    if (!batch.entryCounts.isEmpty()) {
        script += " for d in" + quotedList(batch.entryCounts)
            + "; do printf '\\n%s C %s\\n' \"$B\" \"$d\";"
              " if [ -r \"$d\" ] && [ -x \"$d\" ] && [ -d \"$d\" ]; then set -- \"$d\"/*;"
              " [ -e \"$1\" ] || [ -L \"$1\" ] || shift; echo \"$#\";"
              " elif [ -e \"$d\" ]; then echo \"count: $d: Permission denied\";"
              " printf '\\n%s E %s\\n' \"$B\" \"$d\";"
              " else echo \"count: $d: No such file or directory\";"
              " printf '\\n%s E %s\\n' \"$B\" \"$d\"; fi; done;";
    }
    if (!batch.filesystems.isEmpty()) {
        script += " for m in" + quotedList(batch.filesystems)
            + "; do printf '\\n%s S %s\\n' \"$B\" \"$m\";"
              " stat -f -c '%S %b %f %a %c %d' -- \"$m\" || printf '\\n%s E %s\\n' \"$B\""
              " \"$m\"; done;";
    }
    if (!batch.directories.isEmpty()) {
        script += " for d in" + quotedList(batch.directories)
            + "; do printf '\\n%s D %s\\n' \"$B\" \"$d\"; ls -1A -- \"$d\" || "
              "printf '\\n%s E %s\\n' \"$B\" \"$d\"; done;";
    }
    script += " } 2>&1; printf '\\n%s END\\n' \"$B\"\n";
    return script;
}

QByteArray endMarker(const QByteArray &boundary)
{
    return '\n' + boundary + " END\n";
}

namespace {

// "4096 262144 131072 120000 65536 65000": stat -f's %S %b %f %a %c %d.
std::optional<FilesystemFigures> parseStatFs(const QByteArray &body)
{
    const QList<QByteArray> fields = body.simplified().split(' ');
    if (fields.size() != 6)
        return std::nullopt;
    quint64 numbers[6];
    for (int i = 0; i < 6; ++i) {
        bool ok = false;
        numbers[i] = fields[i].toULongLong(&ok);
        if (!ok)
            return std::nullopt;
    }
    const quint64 unit = numbers[0];
    const auto bytes = [&](quint64 blocks) -> std::optional<quint64> {
        quint64 product = 0;
        if (qMulOverflow(blocks, unit, &product))
            return std::nullopt;
        return product;
    };
    const auto size = bytes(numbers[1]);
    const auto free = bytes(numbers[2]);
    const auto available = bytes(numbers[3]);
    if (!size || !free || !available)
        return std::nullopt;
    return FilesystemFigures { *size, *free, *available, numbers[4], numbers[5] };
}

} // namespace

RemoteReadReply parseRemoteReadOutput(const RemoteReadBatch &batch, const QByteArray &output,
                                      const QByteArray &boundary)
{
    RemoteReadReply reply;
    const QSet<QString> askedFiles(batch.files.cbegin(), batch.files.cend());
    const QSet<QString> askedDirectories(batch.directories.cbegin(), batch.directories.cend());
    const QSet<QString> askedCounts(batch.entryCounts.cbegin(), batch.entryCounts.cend());
    const QSet<QString> askedFilesystems(batch.filesystems.cbegin(), batch.filesystems.cend());
    QHash<QString, QByteArray> fileData;
    QHash<QString, QByteArray> directoryData;
    QHash<QString, QByteArray> countData;
    QHash<QString, QByteArray> filesystemData;
    QSet<QString> failedFiles;
    QSet<QString> failedDirectories;
    QSet<QString> failedCounts;
    QSet<QString> failedFilesystems;
    QByteArray lastKind; // an E marker belongs to the F, D, C or S item before it
    QHash<qint64, QByteArray> statLines; // the P item: each process's stat line, by pid

    const QByteArray marker = '\n' + boundary + ' ';
    qsizetype at = output.indexOf(marker);
    while (at >= 0) {
        const qsizetype headerStart = at + marker.size();
        const qsizetype headerEnd = output.indexOf('\n', headerStart);
        if (headerEnd < 0)
            break; // cut off inside a header
        const QByteArray header = output.mid(headerStart, headerEnd - headerStart);
        const qsizetype next = output.indexOf(marker, headerEnd);
        if (header == "END") {
            reply.complete = true;
            break;
        }
        const QByteArray kind = header.left(1);
        const QString path = QString::fromUtf8(header.mid(2));
        // Until the next header, or to the end of what arrived (an item cut short is
        // not trusted: it only counts when a header follows it).
        if (next < 0)
            break;
        const QByteArray body = output.mid(headerEnd + 1, next - headerEnd - 1);
        if (kind == "F" && askedFiles.contains(path))
            fileData.insert(path, body);
        else if (kind == "D" && askedDirectories.contains(path))
            directoryData.insert(path, body);
        else if (kind == "C" && askedCounts.contains(path))
            countData.insert(path, body);
        else if (kind == "S" && askedFilesystems.contains(path))
            filesystemData.insert(path, body);
        else if (kind == "P") {
            for (const auto lines = body.split('\n'); const QByteArray &line : lines) {
                const qsizetype space = line.indexOf(' ');
                bool ok = false;
                const qint64 pid = space > 0 ? line.left(space).toLongLong(&ok) : 0;
                if (ok && pid > 0 && !statLines.contains(pid))
                    statLines.insert(pid, line + '\n');
            }
        } else if (kind == "E")
            (lastKind == "D"       ? failedDirectories
                 : lastKind == "C" ? failedCounts
                 : lastKind == "S" ? failedFilesystems
                                   : failedFiles)
                .insert(path);
        lastKind = kind;
        at = next;
    }

    const auto reasonFor = [&](const QString &path, const QSet<QString> &failed,
                               const QHash<QString, QByteArray> &texts) {
        if (failed.contains(path))
            return reasonIn(texts.value(path));
        return reply.complete ? u"missing from the server's answer"_s
                              : u"the server's answer stopped early"_s;
    };
    for (const QString &path : batch.files) {
        if (const qint64 pid = processStatPid(path); pid > 0) {
            const auto line = statLines.constFind(pid);
            if (line != statLines.cend())
                reply.files.contents.insert(path, *line);
            else
                reply.files.errors.insert(path,
                                          reply.complete ? u"No such process"_s
                                                         : u"the server's answer stopped early"_s);
            continue;
        }
        const auto found = fileData.constFind(path);
        if (found != fileData.cend() && !failedFiles.contains(path))
            reply.files.contents.insert(path, *found);
        else
            reply.files.errors.insert(path, reasonFor(path, failedFiles, fileData));
    }
    for (const QString &path : batch.directories) {
        DirectoryListing listing;
        const auto found = directoryData.constFind(path);
        if (found != directoryData.cend() && !failedDirectories.contains(path)) {
            for (const auto names = found->split('\n'); const QByteArray &name : names) {
                if (!name.isEmpty())
                    listing.entries << QString::fromUtf8(name);
            }
        } else {
            listing.error = reasonFor(path, failedDirectories, directoryData);
        }
        reply.directories.insert(path, listing);
    }
    for (const QString &path : batch.entryCounts) {
        const auto found = countData.constFind(path);
        bool ok = false;
        const qint64 count = found == countData.cend() ? -1 : found->trimmed().toLongLong(&ok);
        if (found != countData.cend() && !failedCounts.contains(path) && ok && count >= 0)
            reply.files.entryCounts.insert(path, count);
        else if (found != countData.cend() && !failedCounts.contains(path))
            reply.files.entryCountErrors.insert(path, u"not a count in the server's answer"_s);
        else
            reply.files.entryCountErrors.insert(path, reasonFor(path, failedCounts, countData));
    }
    for (const QString &path : batch.filesystems) {
        const auto found = filesystemData.constFind(path);
        if (found == filesystemData.cend() || failedFilesystems.contains(path)) {
            reply.files.filesystemErrors.insert(path,
                                                reasonFor(path, failedFilesystems, filesystemData));
        } else if (const auto figures = parseStatFs(*found)) {
            reply.files.filesystems.insert(path, *figures);
        } else {
            reply.files.filesystemErrors.insert(
                path, u"stat -f answered %1"_s.arg(QString::fromUtf8(found->trimmed().left(80))));
        }
    }
    return reply;
}

} // namespace Headroom
