#!/usr/bin/perl
# Reads an EDIFACT interchange (bytes, from the file named as argument) with Debian's
# Business::Edifact::Interchange and prints every segment as JSON: [{"name":"UNB","elements":[["UNOC","3"],...]}].
#
# The module's own message layer (Business::Edifact::Message) only keeps the segments of library book-ordering
# messages, so this subclass hooks the interchange level instead: `parse_file` (line endings), `parse` (UNA, segment
# and data element separators, release character), `split_components` (component separator, unescaping, decoding
# from the charset UNB's syntax identifier names) stay the module's; the hooks only record what it hands them.
# The module's warnings (UNZ counts or control references that do not match) are turned into errors.
use strict;
use warnings;
use JSON::PP;

package RecordingInterchange;
use parent -norequire, 'Business::Edifact::Interchange';
require Business::Edifact::Interchange;

sub record {
    my ( $self, $tag, $elements ) = @_;
    push @{ $self->{recorded} }, { name => $tag, elements => $elements };
    return;
}

sub interchange_header {
    my ( $self, @data ) = @_;
    my $elements = $self->SUPER::interchange_header(@data);
    $self->record( 'UNB', $elements );
    return $elements;
}

sub message_header {
    my ( $self, @data ) = @_;
    $self->record( 'UNH', $self->split_components(@data) );
    return { open => 1 };
}

sub user_data_segment {
    my ( $self, $msg, $tag, @data ) = @_;
    die "Segment $tag außerhalb einer Nachricht (vor UNH oder nach UNT)\n" unless $msg;
    $self->record( $tag, $self->split_components(@data) );
    return;
}

sub message_trailer {
    my ( $self, $msg, @data ) = @_;
    die "UNT ohne UNH\n" unless $msg;
    $self->record( 'UNT', $self->split_components(@data) );
    $self->{msg_cnt}++;
    return;
}

sub interchange_trailer {
    my ( $self, @data ) = @_;
    $self->record( 'UNZ', $self->split_components(@data) );
    return $self->SUPER::interchange_trailer(@data);
}

package main;

local $SIG{__WARN__} = sub { die "Business::Edifact::Interchange: $_[0]" };
my $interchange = RecordingInterchange->new;
$interchange->{recorded} = [];
$interchange->parse_file( $ARGV[0] // die "Aufruf: edifact-segments.pl DATEI\n" );
print JSON::PP->new->utf8->canonical->encode( $interchange->{recorded} ), "\n";
