# The pet store interface on Sinatra 3 (served by Puma), written from the interface alone.
#
# Run: API_KEY=k [FAULT=name] puma -b tcp://127.0.0.1:8000 -e production config.ru (FAULT: README.md).
# Open choices made here, the Ruby way: the newest pet first; the query and the path are checked
# before the key (a bad limit without a key is 400); a petId that is no decimal integer is 404; an
# unknown status is 400; numbers are parsed as BigDecimal, so `5.0` and `1e2` are exact integers and
# `4.9999999999999999` is not; responses say `application/json;charset=utf-8`; ids count on from the
# catalogue's largest; a 401 names a realm (`Bearer realm="petstore"`).
require 'bigdecimal'
require 'json'
require 'securerandom'
require 'sinatra/base'

class PetStore < Sinatra::Base
  FAULT = ENV.fetch('FAULT', '')
  API_KEY = ENV.fetch('API_KEY')
  STATUSES = %w[available pending sold].freeze
  INT64 = (-2**63)...(2**63)
  DEPRECATION = {
    'Deprecation' => '@1748736000',
    'Sunset' => Time.utc(2030, 12, 5).httpdate,
    'Link' => '</v1/pets>; rel="successor-version"'
  }.freeze

  PETS = Array.new(Integer(ENV.fetch('SEED_PETS', '30'))) do |n|
    { 'id' => n + 1, 'name' => "Seed #{n}", 'categoryId' => 1 + (n % 9), 'status' => STATUSES[n % 3] }
  end
  LOCK = Mutex.new
  @next_id = FAULT == 'counter-not-seeded' ? 1 : PETS.size + 1
  class << self
    attr_accessor :next_id
  end

  set :show_exceptions, false
  set :raise_errors, false
  # Rack::Protection's JsonCsrf guards cookie sessions this API has none of, and refuses a browser's JSON GET
  # that carries another site's Referer with a bare 403.
  set :protection, except: :json_csrf unless FAULT == 'json-csrf'

  if FAULT == 'html-ctype'
    before('/v1/pets') { content_type :json, charset: 'utf-8' }
  else
    before { content_type :json, charset: 'utf-8' }
  end
  before('/v1/pets/*') { headers DEPRECATION }

  helpers do
    def fail_with(status, message)
      halt status, JSON.generate(code: Rack::Utils::HTTP_STATUS_CODES[status].downcase.tr(' ', '_'), message: message, status: status)
    end

    def authenticate!
      token = request.env['HTTP_AUTHORIZATION'].to_s
      valid = FAULT == 'auth-include' ? token.include?(API_KEY) : token.match?(/\ABearer /i) && Rack::Utils.secure_compare(token[7..], API_KEY)
      return if valid

      headers 'WWW-Authenticate' => 'Bearer realm="petstore"'
      fail_with 401, 'Missing or invalid API key: send `Authorization: Bearer <API_KEY>`.'
    end

    def invalid(message)
      fail_with FAULT == '422' ? 422 : 400, message
    end

    def limit_param
      limit = Integer(params.fetch('limit', '20'), 10)
      limit = nil if limit > 100 || (limit < 1 && FAULT != 'limit-no-lower-bound')
      limit || invalid('limit: an integer from 1 to 100')
    rescue ArgumentError, TypeError
      invalid('limit: an integer from 1 to 100')
    end

    def integer(value)
      value = Integer(value) if FAULT == 'integer-coerce' && !value.nil?
      value = value.to_i if value.is_a?(BigDecimal) && value.finite? && value.exponent < 20 && value.frac.zero?
      value if value.is_a?(Integer) && INT64.cover?(value)
    rescue ArgumentError, TypeError, FloatDomainError
      nil
    end

    def new_pet
      halt_415 = !request.media_type.to_s.casecmp?('application/json')
      fail_with 415, 'Send the body as JSON with `Content-Type: application/json`.' if halt_415
      text = request.body.read.force_encoding(Encoding::UTF_8)
      invalid('The body is not UTF-8 text, so no JSON (RFC 8259 8.1).') unless text.valid_encoding?
      data = JSON.parse(text, decimal_class: BigDecimal)
      invalid('The body must be a JSON object (NewPet).') unless data.is_a?(Hash)
      invalid('name: required, a string') unless data['name'].is_a?(String)
      category_id = integer(data['categoryId'])
      invalid('categoryId: required, an int64 integer') if category_id.nil?
      status = data.fetch('status', 'available')
      status = status.downcase if FAULT == 'status-downcase' && status.is_a?(String)
      invalid('status: one of available, pending, sold') unless STATUSES.include?(status)
      { 'name' => data['name'], 'categoryId' => category_id, 'status' => status }
    rescue JSON::ParserError => e
      invalid("The body is not JSON: #{e.message[0, 80]}")
    end
  end

  get '/v1/pets' do
    limit = limit_param
    status = FAULT == 'default-available' ? params.fetch('status', 'available') : params['status']
    invalid('status: one of available, pending, sold') unless status.nil? || STATUSES.include?(status)
    authenticate!
    pets = LOCK.synchronize { PETS.reverse }
    pets = pets.select { |pet| pet['status'] == status } if status
    JSON.generate(pets.first(limit))
  end

  post '/v1/pets' do
    authenticate!
    attributes = new_pet
    pet = LOCK.synchronize do
      id = self.class.next_id
      self.class.next_id += 1
      PETS << attributes.merge('id' => id)
      PETS.last
    end
    headers 'Location' => FAULT == 'location-no-prefix' ? "/pets/#{pet['id']}" : "/v1/pets/#{pet['id']}"
    status 201
    JSON.generate(pet)
  end

  get '/v1/pets/:id' do
    id = FAULT == 'octal-id' ? Integer(params['id']) : Integer(params['id'], 10)
    authenticate!
    pet = LOCK.synchronize { PETS.find { |p| p['id'] == id } }
    halt 404 if pet.nil? && FAULT == 'halt-404'
    fail_with 404, "No animal has the id #{id}." if pet.nil?
    JSON.generate(pet)
  rescue ArgumentError
    authenticate!
    fail_with 404, "No animal has the id #{params['id']}."
  end

  unless FAULT == 'halt-404'
    not_found do
      fail_with 404, "No operation has the path #{request.path_info}." if body.empty?
    end
  end

  error do
    fail_with 500, 'The service failed to answer.'
  end
end
