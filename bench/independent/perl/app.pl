#!/usr/bin/perl
# The pet store interface on Mojolicious 9 (Mojolicious::Lite, its own daemon), written from the
# interface and the spec.
#
# Run: PORT=8000 API_KEY=k [FAULT=name] perl app.pl daemon (FAULT: README.md).
# Open choices made here, the Mojolicious way: ids count from 1000 on; the page is in ascending id;
# a pet added without a status is `available`; a `limit` out of range is clamped to 1..100, one that is
# no integer is 400; an unknown `status` is 400; a `petId` that is no decimal integer is 404 (the
# route's placeholder takes only digits, so the rest falls to the not_found page, written as an Error);
# a body not sent as JSON is 415; errors' `code` is the status as a word (`not_found`); no `Location`
# on a 201 (the body carries the id); getPet's answers carry `Deprecation: true` (the form before
# RFC 9745), `Sunset` and `Link`, set in a hook before every route; 401 says `WWW-Authenticate: Bearer`.
use strict;
use warnings;
use Mojolicious::Lite -signatures;
use Mojo::JSON qw(decode_json);
use Scalar::Util qw(looks_like_number);
use B ();

my $FAULT   = $ENV{FAULT} // '';
my $API_KEY = $ENV{API_KEY} // die "API_KEY is required\n";
my @STATUSES = qw(available pending sold);
my %CODES = (400 => 'bad_request', 401 => 'unauthorized', 404 => 'not_found', 405 => 'method_not_allowed',
             413 => 'payload_too_large', 415 => 'unsupported_media_type', 500 => 'internal_error');

my %pets;
my $next_id = 1000;
for my $n (0 .. ($ENV{SEED_PETS} // 30) - 1) {
  my $id = $next_id++;
  $pets{$id} = { id => $id, name => "Seed $n", categoryId => 1 + $n % 9, status => $STATUSES[$n % 3] };
}

app->secrets(['petstore']);
app->max_request_size(1024 * 1024);

sub fail_with ($c, $status, $message) {
  $c->res->headers->www_authenticate('Bearer') if $status == 401;
  return $c->render(status => $status, json => { code => $CODES{$status} // 'error', message => $message, status => $status + 0 });
}

sub authorized ($c) {
  my $header = $c->req->headers->authorization // '';
  return 1 if $header =~ /^Bearer (.+)$/i && $1 eq $API_KEY;
  return 1 if $FAULT eq 'key-prefix' && $header =~ /^Bearer \Q$API_KEY\E/i;
  fail_with($c, 401, 'Missing or invalid API key: send `Authorization: Bearer <API_KEY>`.');
  return 0;
}

# A JSON integer as Mojo::JSON decoded it: an IV (never a string, a float or a boolean), within int64.
sub is_int64 ($value) {
  return 0 if !defined $value || ref $value;
  return looks_like_number($value) ? 1 : 0 if $FAULT eq 'looks-like-number';
  my $flags = B::svref_2object(\$value)->FLAGS;
  # An integer from 2^63 on is kept unsigned (IVisUV): beyond int64.
  return ($flags & B::SVf_IOK) && !($flags & (B::SVf_POK | B::SVf_NOK | B::SVf_IVisUV)) ? 1 : 0;
}

hook before_dispatch => sub ($c) {
  my $path = $c->req->url->path->to_string;
  return unless $path =~ m{^/v1/pets/[^/]+$} && $c->req->method eq 'GET';
  $c->res->headers->header('Deprecation' => 'true');
  $c->res->headers->header('Sunset' => 'Thu, 05 Dec 2030 00:00:00 GMT');
  $c->res->headers->header('Link' => '</v1/pets>; rel="successor-version"');
};

get '/v1/pets' => sub ($c) {
  return unless authorized($c);
  my $raw = $c->param('limit');
  my $limit = $FAULT eq 'limit-or-default' ? ($raw || 20) : ($raw // 20);
  return fail_with($c, 400, 'limit: an integer') unless $limit =~ /^-?[0-9]+\z/;
  $limit = 1 if $limit < 1;
  $limit = 100 if $limit > 100;
  my $status = $c->param('status');
  if (defined $status) {
    return fail_with($c, 400, 'status: one of available, pending, sold') unless grep { $_ eq $status } @STATUSES;
  }
  my @page = grep { !defined $status || $_->{status} eq $status } map { $pets{$_} } sort { $a <=> $b } keys %pets;
  splice @page, $limit if @page > $limit;
  $c->render(json => \@page);
};

post '/v1/pets' => sub ($c) {
  return unless authorized($c);
  my $type = lc($c->req->headers->content_type // '');
  return fail_with($c, 415, 'Send the body as JSON with `Content-Type: application/json`.') unless $type =~ m{^application/json\s*(;|\z)};
  # decode_json takes the UTF-8 bytes; from_json takes characters, so given the bytes it reads each byte as one.
  my $data = eval { $FAULT eq 'latin1-body' ? Mojo::JSON::from_json($c->req->body) : decode_json($c->req->body) };
  return fail_with($c, 400, 'The body is not JSON.') if $@;
  return fail_with($c, 400, 'The body must be a JSON object (NewPet).') unless ref $data eq 'HASH';
  my ($name, $category, $status) = @$data{qw(name categoryId status)};
  if ($FAULT eq 'truthy-name') {
    return fail_with($c, 400, 'name: required') unless $name;
  }
  return fail_with($c, 400, 'name: required, a string') if !defined $name || ref $name || !(B::svref_2object(\$name)->FLAGS & B::SVf_POK);
  return fail_with($c, 400, 'categoryId: required, an int64 integer') unless is_int64($category);
  if ($FAULT eq 'status-defined-or') { $status //= 'available' } else { $status = 'available' unless exists $data->{status} }
  return fail_with($c, 400, 'status: one of available, pending, sold') unless defined $status && !ref $status && grep { $_ eq $status } @STATUSES;
  my $id = $next_id++;
  $pets{$id} = { id => $id, name => "$name", categoryId => $category + 0, status => $status };
  $c->render(status => 201, json => $pets{$id});
};

get '/v1/pets/:id' => [id => qr/-?[0-9]+/] => sub ($c) {
  return unless authorized($c);
  my $pet = $pets{$c->param('id') + 0};
  return fail_with($c, 404, 'No animal has the id ' . $c->param('id') . '.') unless $pet;
  $c->render(json => $pet);
};

# Every other path, and a petId that is no integer: the Error body, behind the key as the API is.
any '/*whatever' => { whatever => '' } => sub ($c) {
  return unless authorized($c);
  fail_with($c, 404, 'No operation has the path ' . $c->req->url->path . '.');
};

helper 'reply.exception' => sub ($c, $e) { fail_with($c, 500, 'The service failed to answer.') };

app->start('daemon', '-l', 'http://127.0.0.1:' . ($ENV{PORT} // 8000), '-m', 'production');
