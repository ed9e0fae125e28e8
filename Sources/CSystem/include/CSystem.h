#ifndef CSYSTEM_H
#define CSYSTEM_H
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <arpa/inet.h>
#include <signal.h>
#include <fcntl.h>
#include <errno.h>
#include <unistd.h>

// errno is thread-local through a macro; read it through a function so Swift sees one value.
int csystem_errno(void);
#endif
