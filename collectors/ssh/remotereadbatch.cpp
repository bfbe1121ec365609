#include "remotereadbatch.h"

#include <QRandomGenerator>
#include <QSet>

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

QByteArray remoteReadScript(const RemoteReadBatch &batch, const QByteArray &boundary)
{
    // LC_ALL=C: messages in English and ls in byte order. 2>&1: a tool's message lands
    // in the item it belongs to. The newline before each header keeps the header on its
    // own line after a file without a final newline; the parser takes it back off.
    // read -r fails on an empty or unreadable file, or one without a final newline
    // (then v holds that last line): each case is told apart below.
    QByteArray script = "{ LC_ALL=C; export LC_ALL; B=" + boundary + ";";
    if (!batch.files.isEmpty()) {
        script += " for f in" + quotedList(batch.files)
            + "; do printf '\\n%s F %s\\n' \"$B\" \"$f\"; case $f in"
              " /sys/*) v=; if IFS= read -r v < \"$f\"; then printf '%s\\n' \"$v\";"
              " elif [ -n \"$v\" ]; then printf '%s' \"$v\";"
              " else printf '\\n%s E %s\\n' \"$B\" \"$f\"; fi;;"
              " *) cat -- \"$f\" || printf '\\n%s E %s\\n' \"$B\" \"$f\";; esac; done;";
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

RemoteReadReply parseRemoteReadOutput(const RemoteReadBatch &batch, const QByteArray &output,
                                      const QByteArray &boundary)
{
    RemoteReadReply reply;
    const QSet<QString> askedFiles(batch.files.cbegin(), batch.files.cend());
    const QSet<QString> askedDirectories(batch.directories.cbegin(), batch.directories.cend());
    QHash<QString, QByteArray> fileData;
    QHash<QString, QByteArray> directoryData;
    QSet<QString> failedFiles;
    QSet<QString> failedDirectories;
    QByteArray lastKind; // an E marker belongs to the F or D item before it

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
        else if (kind == "E")
            (lastKind == "D" ? failedDirectories : failedFiles).insert(path);
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
            for (const QByteArray &name : found->split('\n')) {
                if (!name.isEmpty())
                    listing.entries << QString::fromUtf8(name);
            }
        } else {
            listing.error = reasonFor(path, failedDirectories, directoryData);
        }
        reply.directories.insert(path, listing);
    }
    return reply;
}

} // namespace Headroom
