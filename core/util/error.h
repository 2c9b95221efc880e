// Typed errors for everything core/ does. Library code throws; the boundary (CLI main, GUI
// slot) catches once, adds context and reports. Nothing in core/ calls exit() or abort().
#pragma once

#include <memory>
#include <stdexcept>
#include <string>

namespace lmscope {

// Base class of every error lmscope throws on purpose.
class Error : public std::runtime_error {
public:
    explicit Error(const std::string& message)
        : std::runtime_error(message), message_(std::make_shared<const std::string>(message)) {}
    explicit Error(const char* message) : Error(std::string(message)) {}

    // The whole message: what() stops at the first NUL byte (a file can put one in a name).
    const std::string& message() const noexcept { return *message_; }

private:
    std::shared_ptr<const std::string> message_;  // shared: copying an exception never throws
};

// A file (model, tokenizer, trace) whose content is invalid. what() reads
// "FILE: FIELD: REASON" so one line says where and why.
class FormatError : public Error {
public:
    FormatError(std::string file, std::string field, std::string reason)
        : Error(compose(file, field, reason)),
          file_(std::move(file)), field_(std::move(field)), reason_(std::move(reason)) {}

    const std::string& file() const noexcept { return file_; }
    const std::string& field() const noexcept { return field_; }
    const std::string& reason() const noexcept { return reason_; }

private:
    static std::string compose(const std::string& file, const std::string& field,
                               const std::string& reason) {
        std::string s = file.empty() ? std::string("<memory>") : file;
        if (!field.empty()) s += ": " + field;
        return s + ": " + reason;
    }
    std::string file_, field_, reason_;
};

// The operating system refused something (open, map, write, rename).
class IoError : public Error {
public:
    using Error::Error;
};

// A feature the file asks for that lmscope does not implement (tensor type, architecture).
class UnsupportedError : public Error {
public:
    using Error::Error;
};

// The user asked for something impossible (bad argument values, ids out of range).
class UsageError : public Error {
public:
    using Error::Error;
};

// The model's context cannot hold the tokens asked for (a prompt or chat turn too long, a
// generation past its end).
class ContextFullError : public UsageError {
public:
    using UsageError::UsageError;
};

// A long operation stopped because the user cancelled it.
class CancelledError : public Error {
public:
    CancelledError() : Error("cancelled") {}
};

}  // namespace lmscope
